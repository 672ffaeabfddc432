import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../errors/error-body';

export const CSRF_HEADER = 'x-stemdeck-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Origin of the page that made the request, from Origin or else Referer; undefined for non-browser clients. */
export function requestOrigin(req: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  const referer = req.headers.referer;
  if (typeof referer === 'string') {
    try {
      return new URL(referer).origin;
    } catch {
      return 'invalid';
    }
  }
  return undefined;
}

/**
 * CSRF protection for cookie-authenticated mutations: the request must carry our custom header (which a
 * cross-site form cannot send and cross-site fetch cannot send without a CORS preflight we never grant),
 * and when the browser names the requesting page's origin it must be one of ours.
 */
export function csrfProtection(allowedOrigins: Set<string>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method) || !req.path.startsWith('/api/')) return next();
    const origin = requestOrigin(req);
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      return sendError(res, 403, `Cross-site request refused: origin ${origin} is not allowed`);
    }
    if (req.get(CSRF_HEADER) !== '1') {
      return sendError(res, 403, `Cross-site request refused: missing ${CSRF_HEADER} header`);
    }
    next();
  };
}
