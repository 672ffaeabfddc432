import type { Request, Response } from 'express';
import { OSC_BRIDGE_URL, RESOLUME_BRIDGE_URL } from '../../../../frontend/src/instruments/oscBridgeClient';
import { browserSecurityHeaders, contentSecurityDirectives, OSC_BRIDGE_ORIGIN, serializeDirectives } from './browser-security-headers';

/** The headers the middleware sets on one response. */
function headersFor(publicUrl: string): { headers: Record<string, string>; nonce: string } {
  const headers: Record<string, string> = {};
  const res = {
    locals: {} as Record<string, unknown>,
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let passedOn = false;
  browserSecurityHeaders(publicUrl)({ method: 'GET', url: '/' } as Request, res as unknown as Response, () => void (passedOn = true));
  expect(passedOn).toBe(true);
  return { headers, nonce: String(res.locals.cspNonce) };
}

const directivesOf = (header: string): Record<string, string[]> =>
  Object.fromEntries(header.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));

describe('browser security headers', () => {
  it('allow the live connection at the public origin and the local OSC bridge the studio connects to', () => {
    expect(contentSecurityDirectives('http://localhost:8080', 'n')['connect-src']).toEqual(["'self'", 'ws://localhost:8080', OSC_BRIDGE_ORIGIN]);
    expect(contentSecurityDirectives('https://studio.example.com', 'n')['connect-src']).toEqual(["'self'", 'wss://studio.example.com', OSC_BRIDGE_ORIGIN]);
    // The browser's OSC client and the policy name the same bridge, on both of its paths.
    for (const address of [OSC_BRIDGE_URL, RESOLUME_BRIDGE_URL]) expect(new URL(address).origin).toBe(OSC_BRIDGE_ORIGIN);
  });

  it('sets the policy with a fresh nonce per response for styles, and nothing that allows inline script or eval', () => {
    const first = headersFor('http://localhost:8080');
    const second = headersFor('http://localhost:8080');
    expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.nonce).not.toBe(first.nonce);
    const policy = directivesOf(first.headers['content-security-policy']!);
    expect(policy).toEqual(directivesOf(serializeDirectives(contentSecurityDirectives('http://localhost:8080', first.nonce))));
    expect(policy['style-src']).toEqual(["'self'", `'nonce-${first.nonce}'`]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(first.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('says nosniff, no framing and a same-origin referrer on every answer', () => {
    const { headers } = headersFor('http://localhost:8080');
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
  });

  it('asks browsers to keep to https only when the public URL is https', () => {
    expect(headersFor('http://localhost:8080').headers['strict-transport-security']).toBeUndefined();
    expect(headersFor('https://studio.example.com').headers['strict-transport-security']).toBe('max-age=31536000');
  });
});
