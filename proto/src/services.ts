/** The NATS-connected services behind the gateway. Each answers `health.<name>` (see health.ts). */
export const SERVICE_NAMES = ['media', 'jobs', 'sessions', 'export'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Queue group a service's replicas share, so one request is handled by exactly one replica. */
export const queueGroupOf = (service: ServiceName): string => `stemdeck-${service}`;
