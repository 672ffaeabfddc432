import { z, ZodTypeAny } from 'zod';

/** Raised when the environment does not satisfy a service's config schema; names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates environment variables into a typed config object. Each schema key is the variable's name,
 * so a failure message says exactly which variable is missing or malformed and why.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const value = env[name];
    return value === undefined || value === ''
      ? `${name} is required (${issue.message})`
      : `${name}=${JSON.stringify(value)} is invalid: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Common variable shapes. */
export const env = {
  url: () => z.string().url(),
  port: (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback),
  string: () => z.string().min(1),
  optionalUrl: () => z.string().url().optional(),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
} satisfies Record<string, (...args: never[]) => ZodTypeAny>;

/** Variables every NATS-connected process needs. */
export const natsConfigShape = {
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
};
/**
 * Variables of a NATS-only service process: its NATS server and, when HEALTH_PORT is set, the HTTP port
 * that answers per-pod liveness and readiness probes (HEALTH_HOST: 0.0.0.0 in a pod, loopback locally).
 */
export const natsServiceConfigShape = {
  ...natsConfigShape,
  HEALTH_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
};
export type NatsServiceConfig = z.infer<z.ZodObject<typeof natsServiceConfigShape>>;
export const databaseConfigShape = {
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URI')
    // Unacknowledged writes leave a stray reply on the connection (FerretDB), failing the next read.
    .refine((uri) => !/[?&]w=0(&|$)/i.test(uri), 'must not ask for unacknowledged writes (w=0)'),
};
export const storageConfigShape = {
  S3_ENDPOINT: z.string().url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('stemdeck'),
  S3_REGION: z.string().default('us-east-1'),
};
