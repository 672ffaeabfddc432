import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import { exportObjectsPrefix } from './export-record';
import { EXPORT_STORAGE, EXPORT_STORE, type ExportStorage, type ExportStore } from './exports.ports';

/** Exports purged per pass (the next pass takes the rest). */
export const PURGE_BATCH = 100;
/** How long an expired export's document is kept (so its download still answers 410, not 404). */
export const EXPIRED_RECORD_KEEP_MS = 30 * 24 * 3600_000;

/**
 * One pass of the expiry sweep: every completed export whose download expired has its objects removed and
 * is marked purged (its download answers 410 from then on, as it already did once expired); exports expired
 * for longer than EXPIRED_RECORD_KEEP_MS are forgotten. An export whose objects could not be removed stays
 * unpurged, so the next pass tries again. Answers how many were purged.
 */
@Injectable()
export class PurgeExpiredExportsUseCase {
  private readonly logger = new Logger(PurgeExpiredExportsUseCase.name);

  constructor(
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'listExpired' | 'markPurged' | 'deleteExpiredBefore'>,
    @Inject(EXPORT_STORAGE) private readonly storage: Pick<ExportStorage, 'removePrefix'>,
    @Inject(CLOCK) private readonly clock: Clock,
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
    await this.exports.deleteExpiredBefore(new Date(now - EXPIRED_RECORD_KEEP_MS));
    return purged;
  }
}
