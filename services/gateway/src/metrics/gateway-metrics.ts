import { Logger } from '@nestjs/common';
import { startMetricsServer } from '@stemdeck/platform';

/**
 * The gateway's `/metrics` on its own port (METRICS_PORT), never the public one the Ingress exposes. Unset:
 * none is served.
 */
export async function serveGatewayMetrics(config: { METRICS_PORT?: number; METRICS_HOST: string }): Promise<void> {
  if (config.METRICS_PORT === undefined) return;
  const server = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT });
  new Logger('gateway').log(`metrics on http://${config.METRICS_HOST}:${server.port}/metrics`);
}
