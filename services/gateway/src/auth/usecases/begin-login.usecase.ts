import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../errors/domain-error';
import type { PendingLogin } from '../../session/session-user';
import { OidcAdapter } from '../oidc.adapter';
import { safeReturnTo } from '../return-to';

export const SIGN_IN_UNAVAILABLE =
  'Signing in is not possible right now: the sign-in service is not answering. If you are already signed in, you can keep working. Please try again in a few minutes.';

/** 503: the identity provider does not answer, so a browser sent there would only find an error of its own. */
export class SignInUnavailableError extends DomainError {
  constructor() {
    super(503, SIGN_IN_UNAVAILABLE);
  }
}

/**
 * Starts the authorization code flow: a fresh PKCE verifier, state and nonce for this browser — once the
 * provider has answered, so a person meets the studio's own explanation instead of the browser's error.
 */
@Injectable()
export class BeginLoginUseCase {
  private readonly logger = new Logger(BeginLoginUseCase.name);

  constructor(@Inject(OidcAdapter) private readonly oidc: Pick<OidcAdapter, 'ping' | 'createAuthorizationRequest'>) {}

  async execute(returnTo: unknown): Promise<{ redirectUrl: string; pending: PendingLogin }> {
    await this.oidc.ping().catch((error: Error) => {
      this.logger.warn(`sign-in refused, the identity provider does not answer: ${error.message}`);
      throw new SignInUnavailableError();
    });
    const request = await this.oidc.createAuthorizationRequest();
    return {
      redirectUrl: request.url,
      pending: { codeVerifier: request.codeVerifier, state: request.state, nonce: request.nonce, returnTo: safeReturnTo(returnTo) },
    };
  }
}
