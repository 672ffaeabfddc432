export * from './config';
export * from './health';
export * from './nats-trace';
export * from './nats-rpc.client';
export * from './object-storage.adapter';
export * from './service-kit.module';
export * from './bootstrap';
