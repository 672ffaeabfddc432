import { Logger } from '@nestjs/common';
import type { AuthorizationRequest } from '../oidc.adapter';
import { BeginLoginUseCase, SIGN_IN_UNAVAILABLE, SignInUnavailableError } from './begin-login.usecase';

class FakeProvider {
  answering = true;
  requests = 0;
  async ping(): Promise<void> {
    if (!this.answering) throw new Error('The operation was aborted due to timeout');
  }
  async createAuthorizationRequest(): Promise<AuthorizationRequest> {
    this.requests++;
    return { url: 'http://idp.test/auth?state=s', codeVerifier: 'v', state: 's', nonce: 'n' };
  }
}

describe('BeginLoginUseCase', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('sends the browser to the provider once it answers', async () => {
    const provider = new FakeProvider();
    const started = await new BeginLoginUseCase(provider).execute('/studio');
    expect(started).toEqual({ redirectUrl: 'http://idp.test/auth?state=s', pending: { codeVerifier: 'v', state: 's', nonce: 'n', returnTo: '/studio' } });
  });

  it('refuses with a plain 503 and starts no sign-in while the provider does not answer', async () => {
    const provider = new FakeProvider();
    provider.answering = false;
    const refused = new BeginLoginUseCase(provider).execute('/');
    await expect(refused).rejects.toBeInstanceOf(SignInUnavailableError);
    await expect(refused).rejects.toMatchObject({ status: 503, message: SIGN_IN_UNAVAILABLE });
    expect(provider.requests).toBe(0);
  });
});
