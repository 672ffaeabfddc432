import { Inject, Injectable } from '@nestjs/common';
import { ServiceJobSlots, type SlotBoard, type SlotsPort } from '@stemdeck/platform';
import type { JobsConfig } from '../config';
import { toJobRecord } from './job-record';
import { JOBS_CONFIG } from './jobs-settings';
import { JOB_EVENTS, JOB_QUEUE, JOB_STORE, SLOT_BOARD, type JobEvents, type JobQueue, type JobStore } from './jobs.ports';

/** How a job gets one of its owner's slots, and gives it back. */
export type JobSlotsPort = SlotsPort;
export const JOB_SLOTS = Symbol('JobSlots');

/** The slots' kind: mastering, enhance and video jobs share one limit per user. */
export const JOBS_SLOT_KIND = 'jobs';
export const NOT_QUEUED = 'The job could not be queued';

/**
 * Each user runs at most JOBS_PER_USER jobs (of all three types together) at once; the rest wait in the
 * database (not in the work queue, where they would hold back every other user's jobs) and are handed to
 * the queue oldest first as the user's running ones end. A waiting job's new place goes out as job_progress
 * carrying queuePosition. Every JOBS_SLOT_SWEEP_MS a sweep frees the slots of jobs that ended without
 * giving them back (a crash) and starts what can start.
 */
@Injectable()
export class JobSlots extends ServiceJobSlots {
  constructor(
    @Inject(SLOT_BOARD) board: SlotBoard,
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'findOwned' | 'fail' | 'waitingIds' | 'ownersWaiting' | 'leaveWaiting'>,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(JOB_EVENTS) private readonly events: JobEvents,
    @Inject(JOBS_CONFIG) config: Pick<JobsConfig, 'JOBS_PER_USER' | 'JOBS_SLOT_SWEEP_MS'>,
  ) {
    super(JOBS_SLOT_KIND, config.JOBS_PER_USER, board, config.JOBS_SLOT_SWEEP_MS, jobs);
  }

  async holdsSlot(ownerId: string, jobId: string): Promise<boolean> {
    return (await this.jobs.findOwned(ownerId, jobId))?.status === 'processing';
  }

  /** Hands the job to the work queue; when that fails the job is failed and its owner told (they start it again). */
  async dispatch(ownerId: string, jobId: string): Promise<void> {
    try {
      await this.queue.publish(jobId, { jobId, ownerId });
    } catch (error) {
      const failed = await this.jobs.fail(ownerId, jobId, NOT_QUEUED);
      if (failed) this.events.publish({ type: 'job_failed', ownerId, job: toJobRecord(failed) });
      throw error;
    }
  }

  protected async tellPlace(ownerId: string, jobId: string, position: number): Promise<void> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (job?.waiting && job.status === 'processing') this.events.publish({ type: 'job_progress', ownerId, job: toJobRecord(job, position) });
  }
}
