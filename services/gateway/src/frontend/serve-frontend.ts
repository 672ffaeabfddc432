import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CSP_NONCE_PLACEHOLDER, cspNonceOf } from '../security/browser-security-headers';

const BACKEND_PREFIXES = ['/api/', '/ws', '/healthz', '/readyz'];

/**
 * Production: the gateway serves the built single-page app, so the studio is one URL. Hashed assets are
 * cached for a year; any other GET that is not an API path gets index.html (client-side routing), with the
 * response's CSP nonce in place of the build's placeholder (Chakra's run-time styles carry it).
 */
export function serveFrontend(app: Express, directory: string): void {
  const root = resolve(directory);
  const indexHtml = join(root, 'index.html');
  if (!existsSync(indexHtml)) throw new Error(`FRONTEND_DIR=${directory} has no index.html; run npm run build`);
  // Read per request, as sendFile did, so a rebuilt frontend is served without a restart.
  const sendPage = (_req: Request, res: Response, next: NextFunction) => {
    readFile(indexHtml, 'utf8').then((page) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(page.replaceAll(CSP_NONCE_PLACEHOLDER, cspNonceOf(res)));
    }, next);
  };
  app.get('/index.html', sendPage);
  app.use('/assets', express.static(join(root, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  app.use(express.static(root, { index: false, maxAge: 0 }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/api' || BACKEND_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next();
    sendPage(req, res, next);
  });
}
