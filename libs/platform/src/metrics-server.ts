import { z } from 'zod';
import { InternalHttpServer, listenInternal } from './internal-http-server';
import { METRICS_CONTENT_TYPE, metricsText } from './metrics';

export type MetricsServer = InternalHttpServer;

/**
 * `/metrics` on a port of its own, for a process whose main port is public (the gateway's is what the
 * Ingress exposes): Prometheus scrapes the pod here, and nothing about the studio's traffic leaks to the internet.
 */
export function startMetricsServer(options: { host: string; port: number }): Promise<MetricsServer> {
  return listenInternal(options.host, options.port, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    metricsText().then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${error.message}`),
    );
  });
}

/** The variables of a process that serves `/metrics` on a port of its own: unset port, none served. */
export const metricsConfigShape = {
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
};
