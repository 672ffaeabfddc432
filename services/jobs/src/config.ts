import { databaseConfigShape, env, loadConfig, natsConfigShape, storageConfigShape } from '@stemdeck/platform';
import { z } from 'zod';

export const loadJobsConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(
    {
      ...natsConfigShape,
      ...databaseConfigShape,
      ...storageConfigShape,
      /** A job without a heartbeat for this long is redelivered to another worker. */
      JOBS_ACK_WAIT_MS: env.int(30_000, 1000),
      /** Attempts a job gets before it is marked failed (JetStream delivers it once more, see JobsQueue). */
      JOBS_MAX_DELIVER: env.int(3, 1),
      /** Scratch space for mixes and masters (removed after each job). */
      JOBS_WORK_DIR: z.string().min(1).default('/tmp/stemdeck-jobs'),
    },
    source,
  );
export type JobsConfig = ReturnType<typeof loadJobsConfig>;
