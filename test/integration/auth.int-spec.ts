import mongoose from 'mongoose';
import { BASE_URL, BASE_URL_2, KEYCLOAK_URL } from '../support/env';
import { signIn } from '../support/sign-in';

const sessionIdOf = (cookie: string) => {
  const raw = decodeURIComponent(/stemdeck\.sid=([^;]+)/.exec(cookie)![1]!);
  return raw.slice(2, raw.lastIndexOf('.')); // "s:<id>.<signature>"
};

describe('sign-in through Keycloak (OIDC code flow + PKCE)', () => {
  let connection: mongoose.Connection;
  beforeAll(async () => {
    connection = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
  });
  afterAll(() => connection.close());

  it('/api/login redirects to the provider with PKCE S256, state and nonce', async () => {
    const response = await fetch(`${BASE_URL}/api/login`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${KEYCLOAK_URL}/realms/stemdeck/protocol/openid-connect/auth`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(`${BASE_URL}/api/callback`);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('stemdeck.sid='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('demo/demo signs in; the session lives in the database and the browser only holds an opaque cookie', async () => {
    const agent = await signIn('demo', 'demo');
    const response = await agent.fetch('/api/auth/user');
    expect(response.status).toBe(200);
    const user = await response.json();
    expect(user).toEqual({ id: expect.any(String), email: 'demo@example.com', firstName: 'Demo', lastName: 'User', profileImageUrl: null });

    const stored = await connection.collection('sessions').findOne({ _id: sessionIdOf(agent.cookie) as never });
    expect(stored).not.toBeNull();
    expect(JSON.stringify(stored)).not.toMatch(/access_token|refresh_token/);
    expect(agent.cookie).not.toMatch(/eyJ/); // no JWT in the cookie
    const known = await connection.collection('users').findOne({ _id: user.id });
    expect(known).toMatchObject({ email: 'demo@example.com', firstName: 'Demo' });
  });

  it('returns the user to the page they asked for, and only to same-site paths', async () => {
    const login = await fetch(`${BASE_URL}/api/login?returnTo=${encodeURIComponent('//evil.example/x')}`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    const agent = await signIn('demo', 'demo', '/collaborate');
    expect(agent.cookie).toContain('stemdeck.sid=');
  });

  it('a callback with no sign-in in progress, or a forged state, is refused', async () => {
    const orphan = await fetch(`${BASE_URL}/api/callback?code=abc&state=xyz`, { redirect: 'manual' });
    expect(orphan.status).toBe(400);
    expect((await orphan.json()).message).toMatch(/No sign-in is in progress/);

    const login = await fetch(`${BASE_URL}/api/login`, { redirect: 'manual' });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const forged = await fetch(`${BASE_URL}/api/callback?code=abc&state=forged`, { redirect: 'manual', headers: { cookie } });
    expect(forged.status).toBe(401);
    expect((await forged.json()).message).toBe('Sign-in could not be verified; please try again');
  });

  it('wrong credentials never produce a session', async () => {
    await expect(signIn('demo', 'wrong-password')).rejects.toThrow(/refused the credentials/);
  });

  it('logout destroys the server session and ends the Keycloak session too', async () => {
    const agent = await signIn('demo', 'demo');
    const sessionId = sessionIdOf(agent.cookie);
    const response = await agent.fetch('/api/logout');
    expect(response.status).toBe(302);
    const endSession = new URL(response.headers.get('location')!);
    expect(endSession.pathname).toBe('/realms/stemdeck/protocol/openid-connect/logout');
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${BASE_URL}/`);
    expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    expect(await connection.collection('sessions').findOne({ _id: sessionId as never })).toBeNull();
    expect((await agent.fetch('/api/auth/user')).status).toBe(401);
  });

  it('a sign-out on one replica ends the session on the other at once (it had a copy of the session)', async () => {
    const agent = await signIn('demo', 'demo');
    const onReplica2 = () => fetch(`${BASE_URL_2}/api/auth/user`, { headers: { cookie: agent.cookie } });
    // Replica 2 reads the session and keeps a copy for a few seconds.
    expect((await onReplica2()).status).toBe(200);
    expect((await onReplica2()).status).toBe(200);
    expect((await agent.fetch('/api/logout')).status).toBe(302);
    // Told over NATS by replica 1, replica 2 drops its copy: not answered signed in for the copy's lifetime.
    const started = Date.now();
    let status = (await onReplica2()).status;
    while (status === 200 && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await onReplica2()).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a sign-in finished on the other replica is seen there (a session in the middle of a sign-in is never copied)', async () => {
    // signIn follows the provider's redirect back to BASE_URL; the session is then used on replica 2 at once.
    const agent = await signIn('demo', 'demo');
    expect((await fetch(`${BASE_URL_2}/api/auth/user`, { headers: { cookie: agent.cookie } })).status).toBe(200);
  });
});
