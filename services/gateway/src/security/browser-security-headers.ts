import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The local OSC bridge the studio's pads talk to (tools/osc-bridge; the browser side is
 * frontend/src/instruments/oscBridgeClient.ts, which always connects to this address, on its '/' and
 * '/resolume' paths). The bridge runs on the performer's own computer, so this is never a server of ours.
 */
export const OSC_BRIDGE_ORIGIN = 'ws://127.0.0.1:7400';

/**
 * The built index.html carries this in place of a nonce (vite.config.ts `html.cspNonce`); every page
 * response replaces it with that response's own nonce (serve-frontend.ts).
 */
export const CSP_NONCE_PLACEHOLDER = 'STEMDECK_CSP_NONCE';

/** One year: browsers keep to https for that long after the last https answer they saw. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The per-response nonce, kept on the response for the page renderer. */
export const cspNonceOf = (res: { locals: Record<string, unknown> }): string => String(res.locals.cspNonce);

type ResponseWithLocals = ServerResponse & { locals: Record<string, unknown> };

/**
 * The Content-Security-Policy the studio runs under, per directive. Every source is there for something the
 * studio does (README, "Browser security headers"):
 * - scripts: only our own bundle (no inline script, no eval: the Milkdrop presets are compiled at build time);
 * - styles: our own stylesheets and the <style> elements Chakra UI (emotion) writes at run time, which carry
 *   the response's nonce (the page hands it to emotion); no other inline style;
 * - connect: the API and the live connection (/ws, same origin; its ws/wss address named too, since older
 *   browsers do not count ws: as 'self') and the performer's local OSC bridge;
 * - workers: Tone.js's clock runs in a Worker made from a blob: URL;
 * - media: stems, masters and generated videos come from the gateway's own routes; blob: for local playback;
 * - images: our own, data:/blob: (canvas snapshots, generated pictures) and https: for the profile picture
 *   the identity provider names, which can be on any host;
 * - frames: nobody may frame any page (the /output visualizer is a window of its own, never a frame);
 * - forms post only to us (sign-in and sign-out are navigations to the identity provider, not form posts).
 */
export function contentSecurityDirectives(publicUrl: string, nonce: string): Record<string, string[]> {
  const origin = new URL(publicUrl);
  const liveOrigin = `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}`;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", `'nonce-${nonce}'`],
    'connect-src': ["'self'", liveOrigin, OSC_BRIDGE_ORIGIN],
    'worker-src': ["'self'", 'blob:'],
    'media-src': ["'self'", 'blob:'],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The policy as the header carries it. */
export const serializeDirectives = (directives: Record<string, string[]>): string =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');

/**
 * helmet's options for every gateway answer (pages, assets, API answers, errors): the CSP above with a fresh
 * nonce per response, nosniff, no framing, the referrer sent only to our own origin (same-origin requests keep
 * their Origin header, which the CSRF check reads), and HSTS only when the public URL is https (an http-only
 * installation must never tell browsers to insist on https).
 */
export function browserSecurityOptions(publicUrl: string): HelmetOptions {
  const https = new URL(publicUrl).protocol === 'https:';
  const directives = contentSecurityDirectives(publicUrl, CSP_NONCE_PLACEHOLDER);
  // helmet asks for the nonce source per response; the placeholder marks where it goes.
  const perResponse = Object.fromEntries(
    Object.entries(directives).map(([name, sources]) => [
      name,
      sources.map((source) =>
        source.includes(CSP_NONCE_PLACEHOLDER)
          ? (_req: IncomingMessage, res: ServerResponse) => source.replace(CSP_NONCE_PLACEHOLDER, cspNonceOf(res as ResponseWithLocals))
          : source,
      ),
    ]),
  );
  return {
    contentSecurityPolicy: { useDefaults: false, directives: perResponse },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    // The output window is opened by the studio with window.open and talks to it over a BroadcastChannel
    // (same origin), which same-origin opener isolation keeps.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/** Sets the browser security headers on every answer; registered before anything that can answer. */
export function browserSecurityHeaders(publicUrl: string): RequestHandler {
  const headers = helmet(browserSecurityOptions(publicUrl));
  return (req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    headers(req, res, next);
  };
}
