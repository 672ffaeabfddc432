import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, RpcFailure, SERVICE_UNAVAILABLE, type Clock, type IdGenerator } from '@stemdeck/platform';
import type { ExportRecord } from '@stemdeck/proto';
import { EXPORT_CONFIG } from '../config';
import { expiryAfter, toExportRecord } from './export-record';
import { EXPORT_SLOTS, NOT_QUEUED, type ExportSlotsPort } from './export-slots';
import { EXPORT_STORE, type ExportSettings, type ExportStore, type NewExport } from './exports.ports';

export type ExportToStart = Omit<NewExport, '_id' | 'createdAt' | 'expiresAt'>;

/**
 * The common end of both create use-cases: the export stored as processing (its expiry provisional until it
 * completes) and handed by id to the durable work queue (where RunExportUseCase picks it up) at once when its
 * owner has a free export slot, or left waiting its turn, the answer saying its place in the owner's line
 * (ExportSlots). A free slot whose queue refused the export (NATS away) fails it and answers 503.
 */
@Injectable()
export class StartExport {
  constructor(
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'create' | 'findOwned'>,
    @Inject(EXPORT_SLOTS) private readonly slots: Pick<ExportSlotsPort, 'admit'>,
    @Inject(EXPORT_CONFIG) private readonly settings: Pick<ExportSettings, 'EXPORT_TTL_MINUTES'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async start(exportToStart: ExportToStart): Promise<ExportRecord> {
    const now = this.clock.now();
    const created = await this.exports.create({ ...exportToStart, _id: this.ids.randomUUID(), createdAt: new Date(now), expiresAt: expiryAfter(now, this.settings.EXPORT_TTL_MINUTES) });
    const place = await this.slots.admit(created.ownerId, created._id);
    if (place === null) {
      // Its slot was free but the work queue refused it (NATS away): the export is failed, the request answers 503.
      const stored = await this.exports.findOwned(created.ownerId, created._id);
      if (stored?.status === 'failed' && stored.error === NOT_QUEUED) throw new RpcFailure(503, SERVICE_UNAVAILABLE);
    }
    // Answered as created (a worker may already have begun it; reading it says how far), with its place if it waits.
    return toExportRecord({ ...created, waiting: place !== null }, place ?? undefined);
  }
}
