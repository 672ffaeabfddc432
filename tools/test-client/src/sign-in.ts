/** A tiny cookie jar keyed by host, enough to walk the OIDC redirects with fetch. */
class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(host, jar);
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }
}

export interface SignedInAgent {
  /** Cookie header carrying the gateway session. */
  cookie: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

async function follow(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) } });
  jar.store(url, response);
  return response;
}

/**
 * Signs in through the real Keycloak login form, exactly as a browser would: /api/login → Keycloak →
 * POST credentials → /api/callback → session cookie.
 */
export async function signInAt(baseUrl: string, username: string, password: string, returnTo = '/'): Promise<SignedInAgent> {
  const jar = new CookieJar();
  let response = await follow(jar, `${baseUrl}/api/login?returnTo=${encodeURIComponent(returnTo)}`);
  if (response.status !== 302) throw new Error(`/api/login answered ${response.status}`);
  const authorizeUrl = response.headers.get('location')!;
  response = await follow(jar, authorizeUrl);
  const html = await response.text();
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no Keycloak login form at ${authorizeUrl} (status ${response.status})`);
  const formUrl = action.replace(/&amp;/g, '&');
  response = await follow(jar, formUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password, credentialId: '' }).toString(),
  });
  if (response.status !== 302) throw new Error(`Keycloak refused the credentials for ${username} (status ${response.status})`);
  const callback = response.headers.get('location')!;
  if (!callback.startsWith(`${baseUrl}/api/callback`)) throw new Error(`unexpected redirect after login: ${callback}`);
  response = await follow(jar, callback);
  if (response.status !== 302) throw new Error(`/api/callback answered ${response.status}: ${await response.text()}`);
  const cookie = jar.header(baseUrl);
  return {
    cookie,
    fetch: (path, init = {}) =>
      fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init, headers: { ...(init.headers as Record<string, string>), cookie } }),
  };
}
