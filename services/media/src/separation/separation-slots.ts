import { Inject, Injectable } from '@nestjs/common';
import { ServiceJobSlots, type SlotBoard, type SlotsPort } from '@stemdeck/platform';
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
export type SeparationSlotsPort = SlotsPort;
export const SEPARATION_SLOTS = Symbol('SeparationSlots');

export const NOT_QUEUED = 'Stem separation could not be started because a studio service was unavailable. Please try again.';
/** The stored reason of a job its work queue refused (what tells it from a job a worker failed). */
export const NOT_QUEUED_REASON = 'could not be queued';

/**
 * Each user runs at most SEPARATION_JOBS_PER_USER separations at once; the rest wait in the database (not in
 * the work queue, where they would hold back every other user's uploads) and are handed to the queue oldest
 * first as the user's running ones finish; each move up goes out as `stems_queued`. Every
 * SEPARATION_SLOT_SWEEP_MS a sweep frees the slots of jobs that ended without giving them back (a crash) and
 * starts what can start.
 */
@Injectable()
export class SeparationSlots extends ServiceJobSlots {
  constructor(
    @Inject(SLOT_BOARD) board: SlotBoard,
    @Inject(SEPARATION_JOBS) private readonly jobs: Pick<SeparationJobs, 'findOwned' | 'finish' | 'waitingIds' | 'ownersWaiting' | 'leaveWaiting'>,
    @Inject(SEPARATION_JOB_QUEUE) private readonly queue: SeparationJobQueue,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
    @Inject(MEDIA_CONFIG) config: Pick<MediaConfig, 'SEPARATION_JOBS_PER_USER' | 'SEPARATION_SLOT_SWEEP_MS'>,
  ) {
    super('separation', config.SEPARATION_JOBS_PER_USER, board, config.SEPARATION_SLOT_SWEEP_MS, jobs);
  }

  async holdsSlot(ownerId: string, jobId: string): Promise<boolean> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    return !!job && (job.status === 'queued' || job.status === 'processing');
  }

  /** Hands the job to the work queue; when that fails the job is failed and its owner told (they ask again). */
  async dispatch(ownerId: string, jobId: string): Promise<void> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) return;
    try {
      await this.queue.publish(job._id, { jobId: job._id, ownerId, projectId: job.projectId, engine: job.engine });
    } catch (error) {
      await this.jobs.finish(ownerId, jobId, 'failed', NOT_QUEUED_REASON);
      this.events.publish({ type: 'stems_failed', ownerId, projectId: job.projectId, engine: job.engine, message: NOT_QUEUED });
      throw error;
    }
  }

  protected async tellPlace(ownerId: string, jobId: string, position: number): Promise<void> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (job?.waiting && job.status === 'queued') this.events.publish({ type: 'stems_queued', ownerId, projectId: job.projectId, engine: job.engine, position });
  }
}
