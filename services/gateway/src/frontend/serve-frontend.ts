import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const BACKEND_PREFIXES = ['/api/', '/ws', '/healthz', '/readyz'];

/**
 * Production: the gateway serves the built single-page app, so the studio is one URL. Hashed assets are
 * cached for a year; any other GET that is not an API path gets index.html (client-side routing).
 */
export function serveFrontend(app: Express, directory: string): void {
  const root = resolve(directory);
  const indexHtml = join(root, 'index.html');
  if (!existsSync(indexHtml)) throw new Error(`FRONTEND_DIR=${directory} has no index.html; run npm run build`);
  app.use('/assets', express.static(join(root, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  app.use(express.static(root, { index: false, maxAge: 0 }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/api' || BACKEND_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexHtml);
  });
}
