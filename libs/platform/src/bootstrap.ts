import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { queueGroupOf, ServiceName } from '@stemdeck/proto';
import { ConfigError } from './config';
import { NATS_RECONNECT_FOREVER } from './nats-reconnect';
import { NatsTraceInterceptor } from './nats-trace';

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

/** Starts a NATS microservice: queue group per service, trace context continued in every handler. */
export async function bootstrapService(service: ServiceName, module: Type | DynamicModule, natsUrl: string): Promise<void> {
  const logger = new Logger(`stemdeck-${service}`);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    transport: Transport.NATS,
    options: { servers: [natsUrl], queue: queueGroupOf(service), name: `stemdeck-${service}`, ...NATS_RECONNECT_FOREVER },
  });
  app.useGlobalInterceptors(new NatsTraceInterceptor());
  app.enableShutdownHooks();
  await app.listen();
  logger.log(`listening on ${natsUrl} (queue ${queueGroupOf(service)})`);
}
