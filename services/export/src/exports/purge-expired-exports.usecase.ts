import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import { EXPORT_CONFIG, type ExportConfig } from '../config';
import { exportObjectsPrefix } from './export-record';
import { EXPORT_STORAGE, EXPORT_STORE, type ExportStorage, type ExportStore } from './exports.ports';
import { failureWords } from './run-export.usecase';

/** Exports purged per pass (the next pass takes the rest). */
export const PURGE_BATCH = 100;
/** How long an expired export's document is kept (so its download still answers 410, not 404). */
export const EXPIRED_RECORD_KEEP_MS = 30 * 24 * 3600_000;
/** The least time an export may stay processing before the sweep calls it stuck (a day). */
export const STUCK_EXPORT_MIN_MS = 24 * 3600_000;

/**
 * How long after it was asked for an export still processing cannot be running any more: every delivery
 * (EXPORT_MAX_DELIVER, and JetStream's one extra) given twice its ack wait, and never less than a day — a
 * delivery's heartbeats extend its ack wait, and a render that stops progressing fails within minutes.
 */
export const stuckAfterMs = (settings: Pick<ExportConfig, 'EXPORT_ACK_WAIT_MS' | 'EXPORT_MAX_DELIVER'>): number =>
  Math.max(STUCK_EXPORT_MIN_MS, 2 * (settings.EXPORT_MAX_DELIVER + 1) * settings.EXPORT_ACK_WAIT_MS);

/**
 * One pass of the expiry sweep: every completed export whose download expired has its objects removed and
 * is marked purged (its download answers 410 from then on, as it already did once expired); exports expired
 * for longer than EXPIRED_RECORD_KEEP_MS are forgotten. An export whose objects could not be removed stays
 * unpurged, so the next pass tries again. Exports still processing long after any delivery could run them
 * (stuckAfterMs: every delivery died, the queue lost the message) are failed with the usual words for users
 * and their objects removed — failed first, only while still processing, so one that completed at that
 * moment keeps its file. Answers how many expired exports were purged.
 */
@Injectable()
export class PurgeExpiredExportsUseCase {
  private readonly logger = new Logger(PurgeExpiredExportsUseCase.name);

  constructor(
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'listExpired' | 'markPurged' | 'deleteExpiredBefore' | 'listStuck' | 'fail'>,
    @Inject(EXPORT_STORAGE) private readonly storage: Pick<ExportStorage, 'removePrefix'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EXPORT_CONFIG) private readonly settings: Pick<ExportConfig, 'EXPORT_ACK_WAIT_MS' | 'EXPORT_MAX_DELIVER'>,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now();
    let purged = 0;
    for (const doc of await this.exports.listExpired(new Date(now), PURGE_BATCH)) {
      try {
        await this.storage.removePrefix(exportObjectsPrefix(doc));
        await this.exports.markPurged(doc.ownerId, doc._id, new Date(now));
        purged += 1;
      } catch (error) {
        this.logger.warn(`expired export ${doc._id}: objects not removed (next sweep tries again): ${(error as Error).message}`);
      }
    }
    await this.failStuck(now);
    await this.exports.deleteExpiredBefore(new Date(now - EXPIRED_RECORD_KEEP_MS));
    return purged;
  }

  private async failStuck(now: number): Promise<void> {
    for (const doc of await this.exports.listStuck(new Date(now - stuckAfterMs(this.settings)), PURGE_BATCH)) {
      try {
        const failed = await this.exports.fail(doc.ownerId, doc._id, failureWords(doc));
        if (!failed) continue;
        this.logger.warn(`export ${doc._id}: still processing since ${doc.createdAt.toISOString()} (every delivery gone); marked failed`);
        await this.storage.removePrefix(exportObjectsPrefix(doc));
      } catch (error) {
        this.logger.warn(`stuck export ${doc._id}: not failed or its objects not removed: ${(error as Error).message}`);
      }
    }
  }
}
