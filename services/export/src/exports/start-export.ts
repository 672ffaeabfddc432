import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@stemdeck/platform';
import type { ExportRecord } from '@stemdeck/proto';
import { EXPORT_CONFIG } from '../config';
import { expiryAfter, toExportRecord } from './export-record';
import { EXPORT_QUEUE, EXPORT_STORE, type ExportQueue, type ExportSettings, type ExportStore, type NewExport } from './exports.ports';

export type ExportToStart = Omit<NewExport, '_id' | 'createdAt' | 'expiresAt'>;

/**
 * The common end of both create use-cases: the export stored as processing (its expiry provisional until it
 * completes) and queued by id on the durable work queue, where RunExportUseCase picks it up.
 */
@Injectable()
export class StartExport {
  constructor(
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'create' | 'fail'>,
    @Inject(EXPORT_QUEUE) private readonly queue: ExportQueue,
    @Inject(EXPORT_CONFIG) private readonly settings: Pick<ExportSettings, 'EXPORT_TTL_MINUTES'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async start(exportToStart: ExportToStart): Promise<ExportRecord> {
    const now = this.clock.now();
    const doc = await this.exports.create({ ...exportToStart, _id: this.ids.randomUUID(), createdAt: new Date(now), expiresAt: expiryAfter(now, this.settings.EXPORT_TTL_MINUTES) });
    try {
      await this.queue.publish(doc._id, { exportId: doc._id, ownerId: doc.ownerId });
    } catch (error) {
      await this.exports.fail(doc.ownerId, doc._id, 'The export could not be queued');
      throw error;
    }
    return toExportRecord(doc);
  }
}
