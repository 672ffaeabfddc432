/**
 * Message contracts shared by the gateway and the services: NATS subjects and their payload schemas.
 * Senders build payloads with these types; receivers validate with the schemas at their edge.
 */
export * from './services';
export * from './health';
export * from './media';
export * from './storage-keys';
