import { httpRequestDuration, httpRequests, statusClass } from '@stemdeck/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isBackendPath } from '../backend-paths';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The `route` label of a finished request: the matched route's template (`/api/projects/:id`), never the
 * raw path, which holds ids and share tokens. Requests no route matched are `(frontend)` (pages and assets
 * of the single-page app) or `(unmatched)` (a 404 under the API).
 */
export function routeLabel(req: Pick<Request, 'baseUrl' | 'path'> & { route?: { path?: unknown } }): string {
  const template = req.route?.path;
  if (typeof template === 'string') return `${req.baseUrl ?? ''}${template}` || '/';
  const path = req.path ?? '/';
  return isBackendPath(path) ? '(unmatched)' : '(frontend)';
}

/** Counts and times every HTTP answer by method, route template and status class (the express app's first handler). */
export function httpMetrics(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const startedAt = performance.now();
    res.once('finish', () => {
      const labels = { method: METHODS.has(req.method) ? req.method : 'OTHER', route: routeLabel(req), status_class: statusClass(res.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, (performance.now() - startedAt) / 1000);
    });
    next();
  };
}
