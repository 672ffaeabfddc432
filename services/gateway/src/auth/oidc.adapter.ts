import { Inject, Injectable, Logger } from '@nestjs/common';
import type * as OpenIdClient from 'openid-client' with { 'resolution-mode': 'import' };
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

export interface AuthorizationRequest {
  url: string;
  codeVerifier: string;
  state: string;
  nonce: string;
}

export interface VerifiedLogin {
  claims: Record<string, unknown>;
  idToken: string | undefined;
}

/**
 * The one place that talks OpenID Connect to the identity provider (Keycloak): discovery, the
 * authorization code flow with PKCE, and RP-initiated logout. Discovery is retried on demand, so the
 * gateway can start before the provider is up.
 */
@Injectable()
export class OidcAdapter {
  private readonly logger = new Logger(OidcAdapter.name);
  private configuration?: Promise<OpenIdClient.Configuration>;
  // openid-client is ESM-only; load it once through a real dynamic import.
  private readonly lib = import('openid-client');

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  get redirectUri(): string {
    return `${this.config.publicUrl}/api/callback`;
  }

  private discover(): Promise<OpenIdClient.Configuration> {
    this.configuration ??= this.lib
      .then((client) =>
        client.discovery(new URL(this.config.OIDC_ISSUER_URL), this.config.OIDC_CLIENT_ID, this.config.OIDC_CLIENT_SECRET, undefined, {
          execute: this.config.OIDC_ISSUER_URL.startsWith('http:') ? [client.allowInsecureRequests] : [],
          timeout: 5,
        }),
      )
      .catch((error: Error) => {
        this.configuration = undefined;
        this.logger.warn(`OIDC discovery failed: ${error.message}`);
        throw error;
      });
    return this.configuration;
  }

  /**
   * Readiness probe, and the check before sending a browser to sign in: the provider answers its discovery
   * document now (within 3 s), not just once at some earlier time.
   */
  async ping(): Promise<void> {
    await this.discover();
    const discovery = new URL(`${this.config.OIDC_ISSUER_URL.replace(/\/$/, '')}/.well-known/openid-configuration`);
    const response = await fetch(discovery, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) throw new Error(`identity provider answered ${response.status}`);
  }

  async createAuthorizationRequest(): Promise<AuthorizationRequest> {
    const [client, configuration] = await Promise.all([this.lib, this.discover()]);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, codeVerifier, state, nonce };
  }

  /** Exchanges the code from the callback URL; checks state, nonce, PKCE and the ID token signature. */
  async completeAuthorization(callbackUrl: URL, expected: { codeVerifier: string; state: string; nonce: string }): Promise<VerifiedLogin> {
    const [client, configuration] = await Promise.all([this.lib, this.discover()]);
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    return { claims: { ...(tokens.claims() ?? {}) }, idToken: tokens.id_token };
  }

  async endSessionUrl(idToken: string | undefined): Promise<string> {
    const [client, configuration] = await Promise.all([this.lib, this.discover()]);
    const parameters: Record<string, string> = { post_logout_redirect_uri: `${this.config.publicUrl}/`, client_id: this.config.OIDC_CLIENT_ID };
    if (idToken) parameters.id_token_hint = idToken;
    return client.buildEndSessionUrl(configuration, parameters).href;
  }
}
