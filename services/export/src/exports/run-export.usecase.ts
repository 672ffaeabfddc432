import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, throttledProgress, type Clock, type ThrottledProgress, type WorkItem, type WorkOutcome } from '@stemdeck/platform';
import type { ExportWorkMessage } from '@stemdeck/proto';
import { EXPORT_CONFIG } from '../config';
import { ExportBuilder } from './export-builder';
import { exportObjectKey, exportObjectsPrefix, expiryAfter } from './export-record';
import { ExportRefused } from './export-refused';
import { ExportScratch } from './export-scratch';
import type { ExportDocument } from './export.schema';
import { EXPORT_STORAGE, EXPORT_STORE, type ExportSettings, type ExportStorage, type ExportStore } from './exports.ports';

/** How often progress is stored (each store also tells whether the export was deleted meanwhile). */
export const PROGRESS_STORE_MS = 500;
export const AUDIO_EXPORT_FAILED = 'Failed to export audio files';
export const PROJECT_EXPORT_FAILED = 'Failed to export project data';
/** The words a failed export is stored with (its cause goes to the log). */
export const failureWords = (doc: Pick<ExportDocument, 'kind'>) => (doc.kind === 'audio' ? AUDIO_EXPORT_FAILED : PROJECT_EXPORT_FAILED);

/** The export is no longer processing: deleted (its project was), failed, or completed by another delivery. */
class NoLongerProcessing extends Error {}

/**
 * One delivery of an export from the durable queue: the files built in a scratch folder of its own, the
 * download uploaded into the export's folder, the completion (with its expiry) stored, and the delivery
 * acknowledged only then. A redelivery (the service stopped mid-export) builds it again from the start and
 * overwrites the same key. Deliveries are bounded: after EXPORT_MAX_DELIVER failed attempts the export is
 * failed with words for users (the cause goes to the log); JetStream's one extra delivery (every attempt
 * died) fails it without running. A refusal met while building (ExportRefused: the song is no longer analysed, …)
 * fails it at once, without retries, with its own words and status. A failed or deleted export leaves no
 * objects and no scratch files; one that another delivery completed meanwhile keeps that delivery's file.
 */
@Injectable()
export class RunExportUseCase {
  private readonly logger = new Logger(RunExportUseCase.name);

  constructor(
    @Inject(EXPORT_STORE) private readonly exports: ExportStore,
    @Inject(EXPORT_STORAGE) private readonly storage: ExportStorage,
    @Inject(EXPORT_CONFIG) private readonly settings: Pick<ExportSettings, 'EXPORT_MAX_DELIVER' | 'EXPORT_TTL_MINUTES'>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly builder: ExportBuilder,
    private readonly scratch: ExportScratch,
  ) {}

  async execute(item: WorkItem<ExportWorkMessage>): Promise<WorkOutcome> {
    const { exportId, ownerId } = item.payload;
    const doc = await this.exports.findOwned(ownerId, exportId);
    if (!doc) return 'give-up';
    if (doc.status !== 'processing') return 'done';
    // Exports run locally; their engine label says what is exported (audio files or project data).
    item.describe?.({ type: 'export', engine: doc.kind });
    const attempts = this.settings.EXPORT_MAX_DELIVER;
    if (item.deliveryCount > attempts) {
      this.logger.error(`export ${exportId}: every one of ${attempts} attempts died without answering; marking it failed`);
      await this.failExport(doc);
      return 'give-up';
    }
    await this.exports.markAttempt(ownerId, exportId);
    const gone = { seen: false };
    const folder = await this.scratch.create();
    try {
      const progress = this.progress(doc, gone);
      const built = await this.builder.build(doc, folder.dir, progress.report);
      // The write still on its way may be the one that finds the export gone.
      await progress.settled();
      if (gone.seen) throw new NoLongerProcessing();
      item.heartbeat();
      const objectKey = exportObjectKey(doc, built.filename);
      await this.storage.putFile(objectKey, built.path, built.contentType).catch(async (error: unknown) => {
        // Nothing half-written stays behind: not the object, not the parts of a multipart upload.
        await this.storage.discard(objectKey).catch(() => undefined);
        throw error;
      });
      const now = this.clock.now();
      const completed = await this.exports.complete(ownerId, exportId, {
        filename: built.filename,
        objectKey,
        contentType: built.contentType,
        completedAt: new Date(now),
        expiresAt: expiryAfter(now, this.settings.EXPORT_TTL_MINUTES),
      });
      if (!completed) throw new NoLongerProcessing();
      this.logger.log(`export ${exportId}: ${built.filename} stored`);
      return 'done';
    } catch (error) {
      // Another delivery may have completed it meanwhile (this one outlived its ack wait): its file, at the same
      // key, is the download now and stays. Anything else (still processing, failed, deleted) keeps no objects.
      const current = await this.exports.findOwned(ownerId, exportId).catch(() => undefined);
      if (current?.status === 'completed') {
        this.logger.log(`export ${exportId}: completed by another delivery meanwhile; its file kept`);
        return 'done';
      }
      await this.removeObjects(doc);
      if (error instanceof NoLongerProcessing) {
        this.logger.log(`export ${exportId}: ${current === null ? 'its project was deleted meanwhile' : 'no longer processing'}; stopped, nothing kept`);
        return 'done';
      }
      const cause = (error as Error).message;
      if (!(error instanceof ExportRefused) && item.deliveryCount < attempts) {
        this.logger.warn(`export ${exportId} attempt ${item.deliveryCount} of ${attempts} failed: ${cause}`);
        return 'retry';
      }
      this.logger.warn(`export ${exportId} failed: ${cause}`);
      await this.failExport(doc, error instanceof ExportRefused ? error : undefined);
      return 'give-up';
    } finally {
      await folder.dispose().catch((error: Error) => this.logger.warn(`export ${exportId}: scratch folder not removed: ${error.message}`));
    }
  }

  /** Throttled progress (never 100 before it is stored); a store that finds the export gone stops the work at the next step. */
  private progress(doc: ExportDocument, gone: { seen: boolean }): ThrottledProgress {
    return throttledProgress({
      intervalMs: PROGRESS_STORE_MS,
      steps: 100,
      clock: this.clock,
      write: async (percent) => {
        if (!(await this.exports.setProgress(doc.ownerId, doc._id, percent))) gone.seen = true;
      },
      failed: (error) => this.logger.warn(`export ${doc._id}: progress not stored: ${error.message}`),
    });
  }

  /** Failed for good: stored with words for users (a refusal's own words and status), its objects removed. */
  private async failExport(doc: ExportDocument, refusal?: ExportRefused): Promise<void> {
    await this.exports.fail(doc.ownerId, doc._id, refusal?.message ?? failureWords(doc), refusal?.status);
    await this.removeObjects(doc);
  }

  private removeObjects(doc: ExportDocument): Promise<void> {
    return this.storage.removePrefix(exportObjectsPrefix(doc)).catch((error: Error) => {
      this.logger.warn(`export ${doc._id}: could not remove its objects: ${error.message}`);
    });
  }
}
