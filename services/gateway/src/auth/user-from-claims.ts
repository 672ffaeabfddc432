import type { SessionUser } from '../session/session-user';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Maps standard OIDC claims to the user the browser sees. `sub` is the stable owner id everywhere. */
export function userFromClaims(claims: Record<string, unknown>): SessionUser {
  const id = text(claims.sub);
  if (!id) throw new Error('ID token has no subject');
  return {
    id,
    email: text(claims.email),
    firstName: text(claims.given_name),
    lastName: text(claims.family_name),
    profileImageUrl: text(claims.picture),
  };
}
