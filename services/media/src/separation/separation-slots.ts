import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OwnerJobSlots, type SlotBoard, type WaitingJobs } from '@stemdeck/platform';
import type { MediaConfig } from '../config';
import { MEDIA_CONFIG } from '../media-config.token';
import {
  SEPARATION_EVENTS,
  SEPARATION_JOB_QUEUE,
  SEPARATION_JOBS,
  SLOT_BOARD,
  type SeparationEvents,
  type SeparationJobQueue,
  type SeparationJobs,
} from './separation.ports';

/** How a separation job gets one of its owner's slots, and gives it back. */
export interface SeparationSlotsPort {
  /** The job (stored waiting) starts now or waits: its place in the owner's line, null when it started. */
  admit(ownerId: string, jobId: string): Promise<number | null>;
  /** The job finished (done, given up, or its project gone): the owner's next waiting job starts. */
  release(ownerId: string, jobId: string): Promise<void>;
  /** A waiting job's place in its owner's line (1 = next); undefined when it is not waiting. */
  placeOf(ownerId: string, jobId: string): Promise<number | undefined>;
}
export const SEPARATION_SLOTS = Symbol('SeparationSlots');

export const NOT_QUEUED = 'Stem separation could not be started because a studio service was unavailable. Please try again.';

/**
 * Each user runs at most SEPARATION_JOBS_PER_USER separations at once; the rest wait in the database (not in
 * the work queue, where they would hold back every other user's uploads) and are handed to the queue oldest
 * first as the user's running ones finish. Every SEPARATION_SLOT_SWEEP_MS a sweep frees the slots of jobs
 * that ended without giving them back (a crash) and starts what can start.
 */
@Injectable()
export class SeparationSlots implements SeparationSlotsPort, WaitingJobs, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SeparationSlots.name);
  private readonly slots: OwnerJobSlots;

  constructor(
    @Inject(SLOT_BOARD) board: SlotBoard,
    @Inject(SEPARATION_JOBS) private readonly jobs: Pick<SeparationJobs, 'findOwned' | 'finish' | 'waitingIds' | 'ownersWaiting' | 'leaveWaiting'>,
    @Inject(SEPARATION_JOB_QUEUE) private readonly queue: SeparationJobQueue,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
    @Inject(MEDIA_CONFIG) private readonly config: Pick<MediaConfig, 'SEPARATION_JOBS_PER_USER' | 'SEPARATION_SLOT_SWEEP_MS'>,
  ) {
    this.slots = new OwnerJobSlots('separation', config.SEPARATION_JOBS_PER_USER, board, this, (message) => this.logger.warn(message));
  }

  onApplicationBootstrap(): void {
    this.slots.startSweeping(this.config.SEPARATION_SLOT_SWEEP_MS, (message) => this.logger.log(message));
  }

  onApplicationShutdown(): Promise<void> {
    return this.slots.stopSweeping();
  }

  admit(ownerId: string, jobId: string): Promise<number | null> {
    return this.slots.admit(ownerId, jobId);
  }

  release(ownerId: string, jobId: string): Promise<void> {
    return this.slots.release(ownerId, jobId);
  }

  async placeOf(ownerId: string, jobId: string): Promise<number | undefined> {
    return (await this.slots.positions(ownerId)).get(jobId);
  }

  // ------------------------------------------------------------ what the slots read and do

  waiting(ownerId: string): Promise<string[]> {
    return this.jobs.waitingIds(ownerId);
  }

  ownersWaiting(): Promise<string[]> {
    return this.jobs.ownersWaiting();
  }

  async holdsSlot(ownerId: string, jobId: string): Promise<boolean> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    return !!job && (job.status === 'queued' || job.status === 'processing');
  }

  leaveWaiting(ownerId: string, jobId: string): Promise<boolean> {
    return this.jobs.leaveWaiting(ownerId, jobId);
  }

  /** Hands the job to the work queue; when that fails the job is failed and its owner told (they ask again). */
  async dispatch(ownerId: string, jobId: string): Promise<void> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) return;
    try {
      await this.queue.publish(job._id, { jobId: job._id, ownerId, projectId: job.projectId, engine: job.engine });
    } catch (error) {
      await this.jobs.finish(ownerId, jobId, 'failed', 'could not be queued');
      this.events.publish({ type: 'stems_failed', ownerId, projectId: job.projectId, engine: job.engine, message: NOT_QUEUED });
      throw error;
    }
  }

  positionsChanged(ownerId: string, positions: ReadonlyArray<{ jobId: string; position: number }>): void {
    void Promise.all(
      positions.map(async ({ jobId, position }) => {
        const job = await this.jobs.findOwned(ownerId, jobId);
        if (job) this.events.publish({ type: 'stems_queued', ownerId, projectId: job.projectId, engine: job.engine, position });
      }),
    ).catch((error: Error) => this.logger.warn(`telling the new places in line failed: ${error.message}`));
  }
}
