import { loadGatewayConfig } from '../config';
import { safeReturnTo } from './return-to';
import { userFromClaims } from './user-from-claims';

describe('safeReturnTo', () => {
  it.each([
    ['/app', '/app'],
    ['/collaborate?x=1', '/collaborate?x=1'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['/api/logout', '/'],
    [undefined, '/'],
  ])('%s → %s', (input, expected) => expect(safeReturnTo(input)).toBe(expected));
});

describe('userFromClaims', () => {
  it('maps standard claims and keeps missing ones null', () => {
    expect(userFromClaims({ sub: 'abc', email: 'demo@example.com', given_name: 'Demo', family_name: 'User' })).toEqual({
      id: 'abc',
      email: 'demo@example.com',
      firstName: 'Demo',
      lastName: 'User',
      profileImageUrl: null,
    });
  });

  it('refuses a token without a subject', () => {
    expect(() => userFromClaims({ email: 'x@example.com' })).toThrow('ID token has no subject');
  });
});

describe('loadGatewayConfig', () => {
  const base = {
    MONGODB_URI: 'mongodb://127.0.0.1:27017/s',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_ACCESS_KEY: 'a',
    S3_SECRET_KEY: 'b',
    OIDC_ISSUER_URL: 'http://localhost:8180/realms/stemdeck',
    OIDC_CLIENT_SECRET: 's',
    SESSION_SECRET: 'x'.repeat(32),
  };

  it('derives the public URL, allowed origins and cookie security', () => {
    const config = loadGatewayConfig({ ...base, PORT: '9090', ALLOWED_ORIGINS: 'http://localhost:5173' });
    expect(config.publicUrl).toBe('http://localhost:9090');
    expect([...config.allowedOrigins]).toEqual(['http://localhost:9090', 'http://localhost:5173']);
    expect(config.cookieSecure).toBe(false);
    expect(loadGatewayConfig({ ...base, PUBLIC_URL: 'https://studio.example/' }).cookieSecure).toBe(true);
  });

  it('names a too-short session secret', () => {
    expect(() => loadGatewayConfig({ ...base, SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET="short" is invalid: must be at least 32 characters/);
  });
});
