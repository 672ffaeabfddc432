import { databaseConfigShape, env, loadConfig, metricsConfigShape, natsConfigShape, storageConfigShape } from '@stemdeck/platform';
import { z } from 'zod';

const gatewayShape = {
  ...natsConfigShape,
  ...databaseConfigShape,
  ...storageConfigShape,
  ...metricsConfigShape,
  PORT: env.port(8080),
  /** Interface to bind; loopback unless deployed behind a proxy/ingress that needs 0.0.0.0. */
  HOST: z.string().default('127.0.0.1'),
  /** The URL users open; redirect URIs and the allowed Origin derive from it. */
  PUBLIC_URL: z.string().url().optional(),
  /** Extra origins allowed for mutating requests and /ws (comma separated), e.g. a Vite dev server. */
  ALLOWED_ORIGINS: z.string().default(''),
  OIDC_ISSUER_URL: z.string().url(),
  OIDC_CLIENT_ID: z.string().min(1).default('stemdeck-gateway'),
  OIDC_CLIENT_SECRET: z.string().min(1),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
  SESSION_TTL_HOURS: env.int(168, 1),
  /** How often expired sessions are deleted from the database. */
  SESSION_SWEEP_INTERVAL_SECONDS: env.int(600, 1),
  /** How often /ws sockets are pinged; one that missed the previous ping is dropped. */
  LIVE_HEARTBEAT_SECONDS: env.int(30, 1),
  /** Built frontend to serve (production); unset in development where Vite serves it. */
  FRONTEND_DIR: z.string().optional(),
  TRUST_PROXY: env.bool(false),
  /** Default storage per user in bytes: 5 GB, counted as 5 × 1024³ bytes; an operator may set one user's own. */
  STORAGE_QUOTA_BYTES: env.int(5 * 1024 ** 3, 1),
  /** Mutating /api requests one user (or, signed out, one client address) may make per minute, all replicas together. */
  RATE_LIMIT_REQUESTS_PER_MINUTE: env.int(600, 1),
  /** /ws messages one user may send per second on one replica, steadily; and how many at once (a burst). */
  RATE_LIMIT_WS_MESSAGES_PER_SECOND: env.int(100, 1),
  RATE_LIMIT_WS_BURST: env.int(200, 1),
};

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env) {
  const raw = loadConfig(gatewayShape, source);
  const publicUrl = new URL(raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`);
  const allowedOrigins = new Set([publicUrl.origin, ...raw.ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean)]);
  return {
    ...raw,
    publicUrl: publicUrl.origin,
    allowedOrigins,
    cookieSecure: publicUrl.protocol === 'https:',
  };
}
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
