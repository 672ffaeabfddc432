import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OwnerJobSlots, type SlotBoard, type WaitingJobs } from '@stemdeck/platform';
import type { JobsConfig } from '../config';
import { toJobRecord } from './job-record';
import { JOBS_CONFIG } from './jobs-settings';
import { JOB_EVENTS, JOB_QUEUE, JOB_STORE, SLOT_BOARD, type JobEvents, type JobQueue, type JobStore } from './jobs.ports';

/** How a job gets one of its owner's slots, and gives it back. */
export interface JobSlotsPort {
  /** The job (stored waiting) starts now or waits: its place in the owner's line, null when it started. */
  admit(ownerId: string, jobId: string): Promise<number | null>;
  /** The job ended (done, failed for good, cancelled, or gone): the owner's next waiting job starts. */
  release(ownerId: string, jobId: string): Promise<void>;
  /** The owner's waiting jobs and their places (1 = next). */
  places(ownerId: string): Promise<Map<string, number>>;
  /** The owner's line changed without a job starting (a waiting one was cancelled or deleted): each is told its place. */
  announcePlaces(ownerId: string): Promise<void>;
}
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
export class JobSlots implements JobSlotsPort, WaitingJobs, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobSlots.name);
  private readonly slots: OwnerJobSlots;

  constructor(
    @Inject(SLOT_BOARD) board: SlotBoard,
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'findOwned' | 'fail' | 'waitingIds' | 'ownersWaiting' | 'leaveWaiting'>,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(JOB_EVENTS) private readonly events: JobEvents,
    @Inject(JOBS_CONFIG) private readonly config: Pick<JobsConfig, 'JOBS_PER_USER' | 'JOBS_SLOT_SWEEP_MS'>,
  ) {
    this.slots = new OwnerJobSlots(JOBS_SLOT_KIND, config.JOBS_PER_USER, board, this, (message) => this.logger.warn(message));
  }

  onApplicationBootstrap(): void {
    this.slots.startSweeping(this.config.JOBS_SLOT_SWEEP_MS, (message) => this.logger.log(message));
  }

  onApplicationShutdown(): Promise<void> {
    return this.slots.stopSweeping();
  }

  /** One sweep pass now (the timer runs them every JOBS_SLOT_SWEEP_MS). */
  sweep(): Promise<{ freed: number; owners: number }> {
    return this.slots.sweep();
  }

  admit(ownerId: string, jobId: string): Promise<number | null> {
    return this.slots.admit(ownerId, jobId);
  }

  release(ownerId: string, jobId: string): Promise<void> {
    return this.slots.release(ownerId, jobId);
  }

  places(ownerId: string): Promise<Map<string, number>> {
    return this.slots.positions(ownerId);
  }

  async announcePlaces(ownerId: string): Promise<void> {
    const places = await this.slots.positions(ownerId);
    if (places.size > 0) this.positionsChanged(ownerId, [...places].map(([jobId, position]) => ({ jobId, position })));
  }

  // ------------------------------------------------------------ what the slots read and do

  waiting(ownerId: string): Promise<string[]> {
    return this.jobs.waitingIds(ownerId);
  }

  ownersWaiting(): Promise<string[]> {
    return this.jobs.ownersWaiting();
  }

  async holdsSlot(ownerId: string, jobId: string): Promise<boolean> {
    return (await this.jobs.findOwned(ownerId, jobId))?.status === 'processing';
  }

  leaveWaiting(ownerId: string, jobId: string): Promise<boolean> {
    return this.jobs.leaveWaiting(ownerId, jobId);
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

  positionsChanged(ownerId: string, positions: ReadonlyArray<{ jobId: string; position: number }>): void {
    void Promise.all(
      positions.map(async ({ jobId, position }) => {
        const job = await this.jobs.findOwned(ownerId, jobId);
        if (job?.waiting && job.status === 'processing') this.events.publish({ type: 'job_progress', ownerId, job: toJobRecord(job, position) });
      }),
    ).catch((error: Error) => this.logger.warn(`telling the new places in line failed: ${error.message}`));
  }
}
