import { databaseConfigShape, env, loadConfig, natsServiceConfigShape, storageConfigShape } from '@stemdeck/platform';
import { z } from 'zod';

/** Node runs a timer longer than 2^31−1 ms after 1 ms, so a longer setting would spin: refused at boot. */
const MAX_TIMER_MS = 2_147_483_647;
const timerMs = (fallback: number, min: number) => z.coerce.number().int().min(min).max(MAX_TIMER_MS).default(fallback);

export const exportConfigShape = {
  ...natsServiceConfigShape,
  ...databaseConfigShape,
  ...storageConfigShape,
  /** An export without a heartbeat for this long is redelivered to another worker. */
  EXPORT_ACK_WAIT_MS: timerMs(30_000, 1000),
  /** Attempts an export gets before it is marked failed. */
  EXPORT_MAX_DELIVER: env.int(3, 1),
  /** Exports one user has built at once; more wait (oldest first) and start as those finish. */
  EXPORTS_PER_USER: env.int(2, 1),
  /** How often slots of exports that ended without giving them back (a crash) are freed. */
  EXPORT_SLOT_SWEEP_MS: timerMs(15_000, 500),
  /** Scratch space for files being built (removed after each export). */
  EXPORT_WORK_DIR: z.string().min(1).default('/tmp/stemdeck-export'),
  /** How long a finished export stays downloadable. */
  EXPORT_TTL_MINUTES: env.int(24 * 60, 1),
  /** How often expired exports are removed. */
  EXPORT_SWEEP_INTERVAL_MS: timerMs(5 * 60_000, 1000),
};

export const loadExportConfig = (source: NodeJS.ProcessEnv = process.env) => loadConfig(exportConfigShape, source);
export type ExportConfig = ReturnType<typeof loadExportConfig>;
/** The configuration as the export service's providers inject it. */
export const EXPORT_CONFIG = Symbol('ExportConfig');
