import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobWorkMessage } from '@stemdeck/proto';
import { CLOCK, throttledProgress, type Clock, type ThrottledProgress, type WorkItem, type WorkOutcome } from '@stemdeck/platform';
import { jobObjectsPrefix, toJobRecord } from './job-record';
import { JOB_RUNNERS, JobStopped, NotRunnable, ProviderFailure, type JobRunner, type JobRunners, type RunningJob } from './job-runner';
import type { JobDocument } from './job.schema';
import { JOBS_CONFIG, type JobConfig } from './jobs-settings';
import { JOB_EVENTS, JOB_STORAGE, JOB_STORE, type JobEvents, type JobStorage, type JobStore } from './jobs.ports';

/** How often progress is stored and announced (each store also tells whether the job was cancelled or deleted). */
export const PROGRESS_STORE_MS = 500;
export const gaveUpMessage = (failure: string, attempts: number) => `${failure}: the jobs service stopped during each of ${attempts} attempts`;
/** What a job's error says when the failure's own message is not for users (it is logged). */
export const NOT_PROCESSED = 'the audio could not be processed';

/** The user's words for a failure: a NotRunnable's or a provider's own message, else NOT_PROCESSED. */
const userReason = (error: unknown): string =>
  error instanceof NotRunnable || error instanceof ProviderFailure ? (error as Error).message.slice(0, 300) : NOT_PROCESSED;

/**
 * One delivery of a job from the durable queue, whatever its type (the type's JobRunner does the work): the
 * job marked as attempted, its real progress stored and announced, its outputs stored in its own folder, the
 * result stored, and the delivery acknowledged only then. A redelivery (the service restarted mid-job) runs
 * it again from the start: the keys are the job's, so it overwrites. Deliveries are bounded: after
 * JOBS_MAX_DELIVER failed attempts the job is failed; JetStream's one extra delivery (every attempt died)
 * fails it without running. A failed, cancelled or deleted job leaves no objects — except once it has begun
 * finishing (handing its outputs to another service, which may already point at them): from then on its
 * objects stay (a retry overwrites the same keys; project deletion removes them), and it cannot be cancelled.
 */
@Injectable()
export class RunJobUseCase {
  private readonly logger = new Logger(RunJobUseCase.name);

  constructor(
    @Inject(JOB_STORE) private readonly jobs: JobStore,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'putFile' | 'removePrefix'>,
    @Inject(JOB_EVENTS) private readonly events: JobEvents,
    @Inject(JOBS_CONFIG) private readonly config: JobConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JOB_RUNNERS) private readonly runners: JobRunners,
  ) {}

  async execute(item: WorkItem<JobWorkMessage>): Promise<WorkOutcome> {
    const { jobId, ownerId } = item.payload;
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) return 'give-up';
    if (job.status !== 'processing') return 'done';
    item.describe?.({ type: job.type, engine: job.provider });
    const runner: JobRunner = this.runners[job.type];
    const attempts = this.config.JOBS_MAX_DELIVER;
    // Whether its outputs may already be pointed at (an earlier delivery, or this one, began finishing).
    const handover = { begun: job.finishing === true };
    if (item.deliveryCount > attempts) {
      this.logger.error(`job ${jobId}: every one of ${attempts} attempts died without answering; marking it failed`);
      await this.failJob(job, gaveUpMessage(runner.failure, attempts), handover.begun);
      return 'give-up';
    }
    await this.jobs.markProcessing(ownerId, jobId);
    this.events.publish({ type: 'job_progress', ownerId, job: toJobRecord(job) });
    const controller = new AbortController();
    const progress = this.progressWrites(job, controller);
    try {
      const result = await runner.run(job, this.running(job, item, controller, handover, progress.report));
      // A progress write still on its way would announce the job as running after job_completed.
      await progress.settled();
      const completed = await this.jobs.complete(ownerId, jobId, result);
      if (!completed) throw new JobStopped();
      this.events.publish({ type: 'job_completed', ownerId, job: toJobRecord(completed) });
      return 'done';
    } catch (error) {
      // Likewise, none may land after the job's failure.
      await progress.settled();
      if (error instanceof JobStopped || controller.signal.reason instanceof JobStopped) {
        // Cancelled (only possible before the hand-over) or its project deleted: nothing can point at its objects.
        await this.removeObjects(job);
        this.logger.log(`job ${jobId}: cancelled or its project deleted; stopped, its objects removed`);
        return 'done';
      }
      // A NotRunnable after the hand-over began is the other service's definite "no" (nothing was attached).
      if (!handover.begun || error instanceof NotRunnable) await this.removeObjects(job);
      const reason = (error as Error).message;
      if (!(error instanceof NotRunnable) && item.deliveryCount < attempts) {
        this.logger.warn(`job ${jobId} attempt ${item.deliveryCount} of ${attempts} failed: ${reason}`);
        return 'retry';
      }
      this.logger.warn(`job ${jobId} failed: ${reason}`);
      await this.failJob(job, error instanceof NotRunnable ? reason : `${runner.failure}: ${userReason(error)}`, handover.begun && !(error instanceof NotRunnable));
      return error instanceof NotRunnable ? 'done' : 'give-up';
    } finally {
      controller.abort();
    }
  }

  /** The job's stored and announced progress, throttled; a write that finds the job cancelled or deleted stops the run. */
  private progressWrites(job: JobDocument, controller: AbortController): ThrottledProgress {
    const { ownerId, _id: jobId } = job;
    return throttledProgress({
      intervalMs: PROGRESS_STORE_MS,
      steps: 100,
      clock: this.clock,
      write: async (percent) => {
        const stored = await this.jobs.setProgress(ownerId, jobId, percent);
        if (!stored) return controller.abort(new JobStopped());
        this.events.publish({ type: 'job_progress', ownerId, job: toJobRecord(stored) });
      },
      failed: (error) => this.logger.warn(`job ${jobId}: progress not stored: ${error.message}`),
    });
  }

  /** The runner's view of this delivery: its progress, uploads into the job's folder, the hand-over claim. */
  private running(job: JobDocument, item: WorkItem<JobWorkMessage>, controller: AbortController, handover: { begun: boolean }, progress: (fraction: number) => void): RunningJob {
    const { ownerId, _id: jobId } = job;
    const prefix = jobObjectsPrefix(job);
    return {
      signal: controller.signal,
      progress,
      store: async (name, path, contentType) => {
        controller.signal.throwIfAborted();
        item.heartbeat();
        const objectKey = `${prefix}${name}`;
        await this.storage.putFile(objectKey, path, contentType);
        return { name, objectKey, contentType };
      },
      beginFinishing: async () => {
        controller.signal.throwIfAborted();
        if (!(await this.jobs.beginFinishing(ownerId, jobId))) throw new JobStopped();
        handover.begun = true;
      },
    };
  }

  /** The job failed for good: stored with its reason, its objects removed (unless they may be pointed at), the owner told. */
  private async failJob(job: JobDocument, error: string, keepObjects: boolean): Promise<void> {
    const failed = await this.jobs.fail(job.ownerId, job._id, error);
    if (keepObjects) this.logger.warn(`job ${job._id}: failed after handing its outputs over; its objects stay (they may be what a stem plays)`);
    else await this.removeObjects(job);
    if (failed) this.events.publish({ type: 'job_failed', ownerId: job.ownerId, job: toJobRecord(failed) });
  }

  private removeObjects(job: JobDocument): Promise<void> {
    return this.storage.removePrefix(jobObjectsPrefix(job)).catch((error: Error) => {
      this.logger.warn(`job ${job._id}: could not remove its objects: ${error.message}`);
    });
  }
}
