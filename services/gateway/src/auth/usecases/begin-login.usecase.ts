import { Injectable } from '@nestjs/common';
import type { PendingLogin } from '../../session/session-user';
import { OidcAdapter } from '../oidc.adapter';
import { safeReturnTo } from '../return-to';

/** Starts the authorization code flow: a fresh PKCE verifier, state and nonce for this browser. */
@Injectable()
export class BeginLoginUseCase {
  constructor(private readonly oidc: OidcAdapter) {}

  async execute(returnTo: unknown): Promise<{ redirectUrl: string; pending: PendingLogin }> {
    const request = await this.oidc.createAuthorizationRequest();
    return {
      redirectUrl: request.url,
      pending: { codeVerifier: request.codeVerifier, state: request.state, nonce: request.nonce, returnTo: safeReturnTo(returnTo) },
    };
  }
}
