import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isBackendPath } from '../backend-paths';
import { CSP_NONCE_PLACEHOLDER, cspNonceOf } from '../security/browser-security-headers';

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
  // API requests pass by without a look at the disk: the file server would stat each path first (about 7 % of a
  // gateway's CPU under the API load), and a built file could otherwise answer in an API route's place.
  const files = express.static(root, { index: false, maxAge: 0 });
  app.use((req: Request, res: Response, next: NextFunction) => (isBackendPath(req.path) ? next() : files(req, res, next)));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (isBackendPath(req.path)) return next();
    sendPage(req, res, next);
  });
}
