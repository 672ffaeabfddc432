import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../errors/domain-error';
import type { PendingLogin, SessionUser } from '../../session/session-user';
import { UserRepository } from '../../users/user.repository';
import { OidcAdapter } from '../oidc.adapter';
import { userFromClaims } from '../user-from-claims';

/** Finishes the flow: verifies the callback against the pending login, records the user. */
@Injectable()
export class CompleteLoginUseCase {
  private readonly logger = new Logger(CompleteLoginUseCase.name);

  constructor(
    private readonly oidc: OidcAdapter,
    private readonly users: UserRepository,
  ) {}

  async execute(callbackUrl: URL, pending: PendingLogin | undefined): Promise<{ user: SessionUser; idToken?: string }> {
    if (!pending) throw new DomainError(400, 'No sign-in is in progress for this browser; start again at /api/login');
    const providerError = callbackUrl.searchParams.get('error');
    if (providerError) {
      throw new DomainError(401, `Sign-in was not completed: ${callbackUrl.searchParams.get('error_description') ?? providerError}`);
    }
    let verified;
    try {
      verified = await this.oidc.completeAuthorization(callbackUrl, pending);
    } catch (error) {
      this.logger.warn(`callback rejected: ${(error as Error).message}`);
      throw new DomainError(401, 'Sign-in could not be verified; please try again');
    }
    const user = userFromClaims(verified.claims);
    await this.users.upsertOnLogin(user);
    return { user, idToken: verified.idToken };
  }
}
