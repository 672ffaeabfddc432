import { ConfigError, databaseConfigShape, env, loadConfig, natsServiceConfigShape, storageConfigShape } from '@stemdeck/platform';
import { z } from 'zod';
import { DOLBY_DEFAULTS } from './providers/dolby-media.client';
import { RUNWAY_DEFAULTS } from './providers/runway-video.client';
import { chooseProviders } from './providers/provider-choice';

/** A credential: unset and empty both mean "not configured". */
const credential = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined));

export const jobsConfigShape = {
  ...natsServiceConfigShape,
  ...databaseConfigShape,
  ...storageConfigShape,
  /** A job without a heartbeat for this long is redelivered to another worker. */
  JOBS_ACK_WAIT_MS: env.int(30_000, 1000),
  /** Attempts a job gets before it is marked failed (JetStream delivers it once more, see JobsQueue). */
  JOBS_MAX_DELIVER: env.int(3, 1),
  /** Jobs (mastering, enhance and video together) one user runs at once; more wait (oldest first) and start as those finish. */
  JOBS_PER_USER: env.int(2, 1),
  /** How often slots of jobs that ended without giving them back (a crash) are freed. */
  JOBS_SLOT_SWEEP_MS: env.int(15_000, 500),
  /** Scratch space for mixes and masters (removed after each job). */
  JOBS_WORK_DIR: z.string().min(1).default('/tmp/stemdeck-jobs'),
  /** Dolby.io Media API app key and secret (both or neither): with them Dolby enhances, and masters unless LANDR is configured. */
  DOLBY_APP_KEY: credential(),
  DOLBY_APP_SECRET: credential(),
  DOLBY_API_URL: z.string().url().default(DOLBY_DEFAULTS.apiBaseUrl),
  DOLBY_AUTH_URL: z.string().url().default(DOLBY_DEFAULTS.authBaseUrl),
  /** A LANDR partner API key and the endpoint LANDR gives with it (LANDR publishes no public API, so there is no default). */
  LANDR_API_KEY: credential(),
  LANDR_API_URL: z.string().url().optional(),
  /** A Runway developer API key: with it Runway generates the music videos' picture (the song stays the soundtrack). */
  RUNWAY_API_KEY: credential(),
  RUNWAY_API_URL: z.string().url().default(RUNWAY_DEFAULTS.apiBaseUrl),
  /** Runway's text-to-video model (its clips are 2–10 s; the clip is looped over the chosen part of the song). */
  RUNWAY_MODEL: z.string().min(1).default(RUNWAY_DEFAULTS.model),
  /** Who masters, enhances and renders videos, when the default (a configured cloud provider, else local) is not wanted. */
  JOBS_MASTERING_PROVIDER: z.enum(['local', 'landr', 'dolby']).optional(),
  JOBS_ENHANCE_PROVIDER: z.enum(['local', 'dolby']).optional(),
  JOBS_VIDEO_PROVIDER: z.enum(['local', 'runway']).optional(),
};

/** The jobs service's configuration; a provider chosen without its credentials stops the boot, named. */
export function loadJobsConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(jobsConfigShape, source);
  const choice = chooseProviders(config);
  if (!choice.ok) throw new ConfigError(choice.problems);
  return config;
}
export type JobsConfig = ReturnType<typeof loadJobsConfig>;
