import { BASE_URL } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';
import { infra, waitForStudioReady } from '../support/stack-control';

/**
 * Promise: while the identity provider does not answer, signing in shows a plain error page (not a stack
 * trace, not a hang, not the browser's own error) and people already signed in keep working on their
 * sessions; once it answers again, signing in works.
 */
describe('fault: identity provider down', () => {
  let demo: SignedInAgent;

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
  });

  afterAll(async () => {
    await infra('keycloak', 'resume');
    await waitForStudioReady();
  }, 120_000);

  it('shows a plain sign-in error page, keeps existing sessions working and recovers', async () => {
    // Frozen, not exited: connections open and nothing answers, the hardest case for a waiting gateway.
    await infra('keycloak', 'pause');
    try {
      const started = Date.now();
      const login = await fetch(`${BASE_URL}/api/login`, { redirect: 'manual', signal: AbortSignal.timeout(20_000) });
      const page = await login.text();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(login.status).toBe(503);
      expect(login.headers.get('content-type')).toMatch(/text\/html/);
      expect(page).toContain('<h1>Sign-in is unavailable</h1>');
      expect(page).toMatch(/already signed in, you can keep working/);
      expect(page).not.toMatch(/Error:|at .*\.js|stack|errorId|localhost:\d+\/realms/);

      // A signed-in person's session lives in the studio, not at the provider.
      expect((await demo.fetch('/api/auth/user')).status).toBe(200);
      const projects = await demo.fetch('/api/projects');
      expect(projects.status).toBe(200);
      expect(Array.isArray(await projects.json())).toBe(true);
    } finally {
      await infra('keycloak', 'resume');
    }

    const rival = await signIn('rival', 'rival');
    expect((await rival.fetch('/api/auth/user')).status).toBe(200);
  }, 90_000);
});
