import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OwnerJobSlots, type SlotBoard, type WaitingJobs } from '@stemdeck/platform';
import { EXPORT_CONFIG, type ExportConfig } from '../config';
import { EXPORT_QUEUE, EXPORT_STORE, SLOT_BOARD, type ExportQueue, type ExportStore } from './exports.ports';

/** How an export gets one of its owner's slots, and gives it back. */
export interface ExportSlotsPort {
  /** The export (stored waiting) starts now or waits: its place in the owner's line, null when it started. */
  admit(ownerId: string, exportId: string): Promise<number | null>;
  /** The export ended (done, failed for good, or gone): the owner's next waiting export starts. */
  release(ownerId: string, exportId: string): Promise<void>;
  /** The owner's waiting exports and their places (1 = next). */
  places(ownerId: string): Promise<Map<string, number>>;
}
export const EXPORT_SLOTS = Symbol('ExportSlots');

export const EXPORTS_SLOT_KIND = 'exports';
export const NOT_QUEUED = 'The export could not be queued';

/**
 * Each user has at most EXPORTS_PER_USER exports built at once; the rest wait in the database (not in the
 * work queue, where they would hold back every other user's exports) and are handed to the queue oldest
 * first as the user's running ones end. Exports send no events: a waiting export's place is read with it
 * (GET /api/exports/:id, which the gateway polls while a request waits for its file). Every
 * EXPORT_SLOT_SWEEP_MS a sweep frees the slots of exports that ended without giving them back (a crash)
 * and starts what can start.
 */
@Injectable()
export class ExportSlots implements ExportSlotsPort, WaitingJobs, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExportSlots.name);
  private readonly slots: OwnerJobSlots;

  constructor(
    @Inject(SLOT_BOARD) board: SlotBoard,
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'findOwned' | 'fail' | 'waitingIds' | 'ownersWaiting' | 'leaveWaiting'>,
    @Inject(EXPORT_QUEUE) private readonly queue: ExportQueue,
    @Inject(EXPORT_CONFIG) private readonly config: Pick<ExportConfig, 'EXPORTS_PER_USER' | 'EXPORT_SLOT_SWEEP_MS'>,
  ) {
    this.slots = new OwnerJobSlots(EXPORTS_SLOT_KIND, config.EXPORTS_PER_USER, board, this, (message) => this.logger.warn(message));
  }

  onApplicationBootstrap(): void {
    this.slots.startSweeping(this.config.EXPORT_SLOT_SWEEP_MS, (message) => this.logger.log(message));
  }

  onApplicationShutdown(): Promise<void> {
    return this.slots.stopSweeping();
  }

  /** One sweep pass now (the timer runs them every EXPORT_SLOT_SWEEP_MS). */
  sweep(): Promise<{ freed: number; owners: number }> {
    return this.slots.sweep();
  }

  admit(ownerId: string, exportId: string): Promise<number | null> {
    return this.slots.admit(ownerId, exportId);
  }

  release(ownerId: string, exportId: string): Promise<void> {
    return this.slots.release(ownerId, exportId);
  }

  places(ownerId: string): Promise<Map<string, number>> {
    return this.slots.positions(ownerId);
  }

  // ------------------------------------------------------------ what the slots read and do

  waiting(ownerId: string): Promise<string[]> {
    return this.exports.waitingIds(ownerId);
  }

  ownersWaiting(): Promise<string[]> {
    return this.exports.ownersWaiting();
  }

  async holdsSlot(ownerId: string, exportId: string): Promise<boolean> {
    return (await this.exports.findOwned(ownerId, exportId))?.status === 'processing';
  }

  leaveWaiting(ownerId: string, exportId: string): Promise<boolean> {
    return this.exports.leaveWaiting(ownerId, exportId);
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
  positionsChanged(): void {}
}
