import { databaseConfigShape, env, loadConfig, natsServiceConfigShape, storageConfigShape } from '@stemdeck/platform';
import { z } from 'zod';

export const loadMediaConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(
    {
      ...natsServiceConfigShape,
      ...databaseConfigShape,
      ...storageConfigShape,
      /** ONNX models for the `hybrid` and `quality` engines: a file path, or `s3:<object key>` in our bucket. */
      STEM_MODEL_HYBRID: z.string().min(1).optional(),
      STEM_MODEL_QUALITY: z.string().min(1).optional(),
      /** Model sample rate (HTDemucs: 44100). */
      STEM_MODEL_SAMPLE_RATE: env.int(44100, 8000),
      /** A separation job without a heartbeat for this long is redelivered to another worker. */
      SEPARATION_ACK_WAIT_MS: env.int(30_000, 1000),
      SEPARATION_MAX_DELIVER: env.int(4, 1),
      /** Separations one user runs at once; more wait (oldest first) and start as those finish. */
      SEPARATION_JOBS_PER_USER: env.int(2, 1),
      /** How often slots of jobs that ended without giving them back (a crash) are freed. */
      SEPARATION_SLOT_SWEEP_MS: env.int(15_000, 500),
      /**
       * How long media answers an owner's repeated project and stem reads from memory at most; any change of
       * theirs drops them at once on every instance, and a lost NATS connection drops everything, so this
       * only bounds an announcement missed without one. 0 keeps nothing (equal reads still share one query).
       */
      MEDIA_READ_CACHE_TTL_MS: env.int(30_000, 0),
      /** Scratch space (model files fetched from object storage). */
      MEDIA_WORK_DIR: z.string().min(1).default('/tmp/stemdeck-media'),
    },
    source,
  );
export type MediaConfig = ReturnType<typeof loadMediaConfig>;
