import { signInAt, type SignedInAgent } from '@stemdeck/test-client';
import { BASE_URL } from './env';

export type { SignedInAgent };

/** Signs in to the stack `npm test` started, through Keycloak's real login form. */
export const signIn = (username: string, password: string, returnTo = '/'): Promise<SignedInAgent> =>
  signInAt(BASE_URL, username, password, returnTo);
