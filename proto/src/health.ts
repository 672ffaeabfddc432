import { z } from 'zod';
import { ServiceName } from './services';

/** Request/reply subject a service answers to prove it is up and its dependencies are reachable. */
export const healthSubject = (service: ServiceName): string => `stemdeck.${service}.health`;

export const HealthRequest = z.object({}).passthrough();
export type HealthRequest = z.infer<typeof HealthRequest>;

export const DependencyCheck = z.object({
  status: z.enum(['ok', 'down']),
  /** Why a dependency is down; absent when ok. */
  detail: z.string().optional(),
  latencyMs: z.number().nonnegative(),
});
export type DependencyCheck = z.infer<typeof DependencyCheck>;

export const HealthReply = z.object({
  service: z.string(),
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  checks: z.record(z.string(), DependencyCheck),
});
export type HealthReply = z.infer<typeof HealthReply>;
