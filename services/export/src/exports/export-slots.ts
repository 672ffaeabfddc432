import { Inject, Injectable } from '@nestjs/common';
import { ServiceJobSlots, type SlotBoard, type SlotsPort } from '@stemdeck/platform';
import { EXPORT_CONFIG, type ExportConfig } from '../config';
import { EXPORT_QUEUE, EXPORT_STORE, SLOT_BOARD, type ExportQueue, type ExportStore } from './exports.ports';

/** How an export gets one of its owner's slots, and gives it back. */
export type ExportSlotsPort = Pick<SlotsPort, 'admit' | 'release' | 'places'>;
export const EXPORT_SLOTS = Symbol('ExportSlots');

export const EXPORTS_SLOT_KIND = 'exports';
export const NOT_QUEUED = 'The export could not be queued';

/**
 * Each user has at most EXPORTS_PER_USER exports built at once; the rest wait in the database (not in the
 * work queue, where they would hold back every other user's exports) and are handed to the queue oldest
 * first as the user's running ones end. Exports send no events: a waiting export's place is read with it
 * (GET /api/exports/:id, which the gateway polls while a request waits for its file, and GET
 * /api/projects/:id/exports, which the export panels poll meanwhile). Every EXPORT_SLOT_SWEEP_MS a sweep
 * frees the slots of exports that ended without giving them back (a crash) and starts what can start.
 */
@Injectable()
export class ExportSlots extends ServiceJobSlots {
  constructor(
    @Inject(SLOT_BOARD) board: SlotBoard,
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'findOwned' | 'fail' | 'waitingIds' | 'ownersWaiting' | 'leaveWaiting'>,
    @Inject(EXPORT_QUEUE) private readonly queue: ExportQueue,
    @Inject(EXPORT_CONFIG) config: Pick<ExportConfig, 'EXPORTS_PER_USER' | 'EXPORT_SLOT_SWEEP_MS'>,
  ) {
    super(EXPORTS_SLOT_KIND, config.EXPORTS_PER_USER, board, config.EXPORT_SLOT_SWEEP_MS, exports);
  }

  async holdsSlot(ownerId: string, exportId: string): Promise<boolean> {
    return (await this.exports.findOwned(ownerId, exportId))?.status === 'processing';
  }

  /** Hands the export to the work queue; when that fails the export is failed (its reader sees why). */
  async dispatch(ownerId: string, exportId: string): Promise<void> {
    try {
      await this.queue.publish(exportId, { exportId, ownerId });
    } catch (error) {
      await this.exports.fail(ownerId, exportId, NOT_QUEUED);
      throw error;
    }
  }

  /** Nothing to send: the places are read with the exports. */
  protected async tellPlace(): Promise<void> {}
}
