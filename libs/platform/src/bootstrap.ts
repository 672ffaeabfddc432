import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { queueGroupOf, ServiceName } from '@stemdeck/proto';
import type { NatsConnection } from 'nats';
import { ConfigError, NatsServiceConfig } from './config';
import { CheckFn } from './health';
import { startHealthServer } from './health-server';
import { setMetricsProcess } from './metrics';
import { NATS_RECONNECT_FOREVER } from './nats-reconnect';
import { NatsTraceInterceptor } from './nats-trace';
import { HEALTH_CHECKS } from './service-kit.module';

/** Loads config or stops the process with a message naming each bad variable. */
export function configOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Starts a NATS microservice: queue group per service, trace context continued in every handler, and,
 * when HEALTH_PORT is set, the HTTP probe port reporting the service's health checks plus its own NATS link.
 */
export async function bootstrapService(service: ServiceName, module: Type | DynamicModule, config: NatsServiceConfig): Promise<void> {
  const logger = new Logger(`stemdeck-${service}`);
  setMetricsProcess(service);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    transport: Transport.NATS,
    options: { servers: [config.NATS_URL], queue: queueGroupOf(service), name: `stemdeck-${service}`, ...NATS_RECONNECT_FOREVER },
  });
  app.useGlobalInterceptors(new NatsTraceInterceptor());
  app.enableShutdownHooks();
  await app.listen();
  logger.log(`listening on ${config.NATS_URL} (queue ${queueGroupOf(service)})`);
  if (config.HEALTH_PORT === undefined) return;
  const connection = app.unwrap<NatsConnection>();
  const checks: Record<string, CheckFn> = {
    // This pod's own subscription link: a flush is a round trip to the server, so it fails while disconnected.
    nats: () => (connection.isClosed() ? Promise.reject(new Error('connection closed')) : connection.flush()),
    ...app.get<Record<string, CheckFn>>(HEALTH_CHECKS),
  };
  const health = await startHealthServer({ service, host: config.HEALTH_HOST, port: config.HEALTH_PORT, checks });
  logger.log(`health probes on http://${config.HEALTH_HOST}:${health.port} (/healthz, /readyz, /metrics)`);
}
