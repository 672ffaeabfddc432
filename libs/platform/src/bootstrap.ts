import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { queueGroupOf, ServiceName } from '@stemdeck/proto';
import { ConfigError } from './config';
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
    // Reconnect for as long as it takes (the client's default gives up after 10 tries, ~20 s, and the
    // service would then sit idle, never answering again).
    options: { servers: [natsUrl], queue: queueGroupOf(service), name: `stemdeck-${service}`, maxReconnectAttempts: -1 },
  });
  app.useGlobalInterceptors(new NatsTraceInterceptor());
  app.enableShutdownHooks();
  await app.listen();
  logger.log(`listening on ${natsUrl} (queue ${queueGroupOf(service)})`);
}
