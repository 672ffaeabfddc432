import type { IncomingMessage, ServerResponse } from 'node:http';
import { CheckFn, healthReport } from './health';
import { InternalHttpServer, listenInternal } from './internal-http-server';
import { METRICS_CONTENT_TYPE, metricsText } from './metrics';

export interface HealthServerOptions {
  /** The service name reported in the answer. */
  service: string;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** The checks of the service's NATS health request, plus this pod's own NATS connection. */
  checks: Record<string, CheckFn>;
}

export type HealthServer = InternalHttpServer;

/**
 * A small HTTP port for a NATS-only service, so an orchestrator can probe each pod (a NATS health request
 * reaches whichever replica answers first). `/healthz`: the process serves requests (liveness; it never
 * looks at dependencies, so a database outage does not restart every pod). `/readyz`: the same report as
 * the service's NATS health request, 200 when every check passes and 503 naming the failing ones.
 * `/metrics`: the process's Prometheus metrics (the port is the pod's, never the Ingress's).
 */
export function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  return listenInternal(options.host, options.port, (req, res) => void answer(options, req, res));
}

async function answer(options: HealthServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'method not allowed' });
  if (path === '/healthz') return send(res, 200, { status: 'ok', service: options.service });
  if (path === '/readyz') {
    const report = await healthReport(options.service, options.checks);
    return send(res, report.status === 'ok' ? 200 : 503, report);
  }
  if (path === '/metrics') {
    res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(await metricsText());
    return;
  }
  send(res, 404, { error: 'not found' });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
