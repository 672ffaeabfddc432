import { BASE_URL, CSRF } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';

/** What every answer of the gateway must carry, whatever it is. */
function expectSecurityHeaders(response: Response, what: string): Record<string, string[]> {
  const headers = {
    what,
    csp: response.headers.get('content-security-policy') !== null,
    nosniff: response.headers.get('x-content-type-options'),
    frameOptions: response.headers.get('x-frame-options'),
    referrer: response.headers.get('referrer-policy'),
    // The test stack's public URL is http: telling browsers to insist on https would lock them out.
    hsts: response.headers.get('strict-transport-security'),
  };
  expect(headers).toEqual({ what, csp: true, nosniff: 'nosniff', frameOptions: 'DENY', referrer: 'same-origin', hsts: null });
  const policy = Object.fromEntries(
    response.headers
      .get('content-security-policy')!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
  expect({ what, frameAncestors: policy['frame-ancestors'], scripts: policy['script-src'], objects: policy['object-src'] }).toEqual({
    what,
    frameAncestors: ["'none'"],
    scripts: ["'self'"],
    objects: ["'none'"],
  });
  return policy;
}

describe('browser security headers on the gateway', () => {
  let demo: SignedInAgent;
  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
  });

  it('every page of the app carries them, with its own style nonce written into the page', async () => {
    const nonces = new Set<string>();
    for (const path of ['/', '/studio', '/app', '/music', '/collaborate', '/output', '/output?key=AAAAAAAAAAAAAAAAAAAAAA', '/index.html', '/no-such-page']) {
      const response = await fetch(`${BASE_URL}${path}`);
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
      const policy = expectSecurityHeaders(response, path);
      const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(policy['style-src']!.find((source: string) => source.startsWith("'nonce-")) ?? '')?.[1];
      expect({ path, nonce: typeof nonce }).toEqual({ path, nonce: 'string' });
      nonces.add(nonce!);
      const html = await response.text();
      // The page hands the same nonce to the styles it writes at run time, and no placeholder is left.
      expect({ path, meta: html.includes(`<meta property="csp-nonce" nonce="${nonce}"`), placeholder: html.includes('STEMDECK_CSP_NONCE') }).toEqual({ path, meta: true, placeholder: false });
      // Nothing inline runs: every script is a file of ours.
      expect({ path, inlineScripts: [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)].length }).toEqual({ path, inlineScripts: 0 });
    }
    expect(nonces.size).toBe(9);
  });

  it('the page signed in carries them too', async () => {
    const response = await demo.fetch('/studio');
    expect(response.status).toBe(200);
    expectSecurityHeaders(response, 'signed-in /studio');
  });

  it('assets, API answers, a 404, errors and redirects carry them', async () => {
    const page = await (await fetch(`${BASE_URL}/`)).text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${BASE_URL}${script}`);
    expect(asset.status).toBe(200);
    expectSecurityHeaders(asset, 'script asset');
    expectSecurityHeaders(await fetch(`${BASE_URL}/favicon.svg`), 'favicon');

    const projects = await demo.fetch('/api/projects');
    expect(projects.status).toBe(200);
    expectSecurityHeaders(projects, 'API answer');
    expectSecurityHeaders(await fetch(`${BASE_URL}/healthz`), '/healthz');

    const missing = await fetch(`${BASE_URL}/api/does-not-exist`);
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, 'API 404');
    const signedOut = await fetch(`${BASE_URL}/api/auth/user`);
    expect(signedOut.status).toBe(401);
    expectSecurityHeaders(signedOut, '401');
    const malformed = await fetch(`${BASE_URL}/api/projects`, { method: 'POST', headers: { ...CSRF, 'content-type': 'application/json' }, body: '{"name": ' });
    expect(malformed.status).toBe(400);
    expectSecurityHeaders(malformed, '400 from the body parser');
    const refused = await fetch(`${BASE_URL}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{}' });
    expect(refused.status).toBe(403);
    expectSecurityHeaders(refused, '403 from the CSRF check');
    const notFound = await demo.fetch('/api/projects/no-such-project');
    expect([400, 404]).toContain(notFound.status);
    expectSecurityHeaders(notFound, 'API error from a use-case');

    const login = await fetch(`${BASE_URL}/api/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expectSecurityHeaders(login, 'sign-in redirect');
  });
});
