import { Controller, DynamicModule, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown, Provider, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { HealthReply, healthSubject, SERVICE_NAMES, ServiceName } from '@stemdeck/proto';
import type { Connection } from 'mongoose';
import { CheckFn, healthReport } from './health';
import { ObjectStorageAdapter, ObjectStorageConfig } from './object-storage.adapter';
import { stopTracing } from './tracing';

export const SERVICE_NAME = Symbol('SERVICE_NAME');
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

export interface ServiceKitOptions {
  /** A NATS service answers its health subject; the gateway is probed over HTTP instead. */
  service: ServiceName | 'gateway';
  /** MongoDB connection string; the service gets a mongoose connection and a `database` check. */
  mongodbUri?: string;
  /** Object storage; the service gets an ObjectStorageAdapter and a `storage` check. */
  storage?: ObjectStorageConfig;
}

const isNatsService = (name: string): name is ServiceName => (SERVICE_NAMES as readonly string[]).includes(name);

function healthControllerFor(service: ServiceName): Type {
  @Controller()
  class HealthController {
    constructor(@Inject(HEALTH_CHECKS) private readonly checks: Record<string, CheckFn>) {}

    @MessagePattern(healthSubject(service))
    health(): Promise<HealthReply> {
      return healthReport(service, this.checks);
    }
  }
  return HealthController;
}

class StorageBootstrap implements OnApplicationBootstrap {
  constructor(@Inject(ObjectStorageAdapter) private readonly storage: ObjectStorageAdapter) {}
  onApplicationBootstrap(): Promise<void> {
    return this.storage.ensureBucket();
  }
}

/**
 * What every NATS service shares: its database connection, object storage and the health answer
 * defined in proto/. Services import it once in their root module.
 */
@Module({})
export class ServiceKitModule implements OnApplicationShutdown {
  /** Every process (services and gateway) flushes its pending spans as Nest shuts down. */
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }

  static forRoot(options: ServiceKitOptions): DynamicModule {
    const imports: DynamicModule[] = [];
    const providers: Provider[] = [{ provide: SERVICE_NAME, useValue: options.service }];
    const exported: Array<symbol | Type> = [SERVICE_NAME];
    const checkTokens: Array<string | symbol | Type> = [];
    if (options.mongodbUri) {
      // The app name travels in the connection handshake, so the database side (and the test stack's
      // wire guard) can tell which process sent a command.
      imports.push(MongooseModule.forRoot(options.mongodbUri, { serverSelectionTimeoutMS: 5000, appName: `stemdeck-${options.service}` }));
      checkTokens.push(getConnectionToken());
    }
    if (options.storage) {
      const storageConfig = options.storage;
      providers.push({ provide: ObjectStorageAdapter, useFactory: () => new ObjectStorageAdapter(storageConfig) }, StorageBootstrap);
      exported.push(ObjectStorageAdapter);
      checkTokens.push(ObjectStorageAdapter);
    }
    providers.push({
      provide: HEALTH_CHECKS,
      inject: checkTokens,
      useFactory: (...deps: Array<Connection | ObjectStorageAdapter>): Record<string, CheckFn> => {
        const checks: Record<string, CheckFn> = {};
        for (const dep of deps) {
          if (dep instanceof ObjectStorageAdapter) checks.storage = () => dep.ping();
          else checks.database = () => dep.db!.admin().ping();
        }
        return checks;
      },
    });
    return {
      module: ServiceKitModule,
      global: true,
      imports,
      controllers: isNatsService(options.service) ? [healthControllerFor(options.service)] : [],
      providers,
      exports: [...exported, HEALTH_CHECKS],
    };
  }
}
