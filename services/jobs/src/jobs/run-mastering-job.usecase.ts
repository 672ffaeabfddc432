import { Inject, Injectable, Logger } from '@nestjs/common';
import { masterJobPrefix, type JobWorkMessage } from '@stemdeck/proto';
import { CLOCK, type Clock, type WorkItem, type WorkOutcome } from '@stemdeck/platform';
import { toJobRecord } from './job-record';
import type { JobDocument } from './job.schema';
import { JOBS_CONFIG, type JobConfig } from './jobs-settings';
import {
  JOB_EVENTS,
  JOB_STORAGE,
  JOB_STORE,
  MASTERING_PROVIDER,
  MEDIA_PROJECTS,
  type JobEvents,
  type JobStorage,
  type JobStore,
  type MasteredSet,
  type MasteringProvider,
  type MediaProjects,
} from './jobs.ports';
import { masterPlan, MASTER_OUTPUT } from './master-plan';

export { MASTER_OUTPUT, soundingStems } from './master-plan';

/** How often progress is stored and announced (each store also tells whether the job was cancelled or deleted). */
export const PROGRESS_STORE_MS = 500;
export const MASTERING_FAILED = 'Mastering failed';
export const gaveUpMessage = (attempts: number) => `${MASTERING_FAILED}: the jobs service stopped during each of ${attempts} attempts`;

/** Fails the job at once (no retry): nothing another attempt could change. */
class NotMasterable extends Error {}
/** The job was cancelled or its project deleted while it ran: stop and leave nothing. */
class JobStopped extends Error {
  constructor() {
    super('the job was cancelled or its project deleted');
  }
}

/**
 * One delivery of a mastering job (full mix): the project's active stems at their saved mix, summed and
 * mastered by the provider with real progress, the master uploaded to the job's own folder, the figures
 * stored, and the job acknowledged only then. A redelivery (the service restarted mid-job) runs it again
 * from the start: the key is the job's, so it overwrites. Deliveries are bounded: after JOBS_MAX_DELIVER
 * failed attempts the job is failed; JetStream's one extra delivery (every attempt died) fails it without
 * running. A failed, cancelled or deleted job leaves no objects.
 */
@Injectable()
export class RunMasteringJobUseCase {
  private readonly logger = new Logger(RunMasteringJobUseCase.name);

  constructor(
    @Inject(JOB_STORE) private readonly jobs: JobStore,
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'activeStems'>,
    @Inject(JOB_STORAGE) private readonly storage: JobStorage,
    @Inject(MASTERING_PROVIDER) private readonly provider: MasteringProvider,
    @Inject(JOB_EVENTS) private readonly events: JobEvents,
    @Inject(JOBS_CONFIG) private readonly config: JobConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(item: WorkItem<JobWorkMessage>): Promise<WorkOutcome> {
    const { jobId, ownerId } = item.payload;
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) return 'give-up';
    if (job.status !== 'processing') return 'done';
    const attempts = this.config.JOBS_MAX_DELIVER;
    if (item.deliveryCount > attempts) {
      this.logger.error(`job ${jobId}: every one of ${attempts} attempts died without answering; marking it failed`);
      await this.failJob(job, gaveUpMessage(attempts));
      return 'give-up';
    }
    await this.jobs.markProcessing(ownerId, jobId);
    this.events.publish({ type: 'job_progress', ownerId, job: toJobRecord(job) });
    const controller = new AbortController();
    let mastered: MasteredSet | undefined;
    try {
      mastered = await this.master(job, controller);
      const outputs = [];
      for (const file of mastered.files) {
        item.heartbeat();
        const key = `${masterJobPrefix(ownerId, job.projectId, jobId)}${file.name}`;
        await this.storage.putFile(key, file.path, file.contentType);
        outputs.push({ name: file.name, objectKey: key, contentType: file.contentType });
      }
      const completed = await this.jobs.complete(ownerId, jobId, {
        outputs,
        before: mastered.before,
        after: mastered.after,
      });
      if (!completed) throw new JobStopped();
      this.events.publish({ type: 'job_completed', ownerId, job: toJobRecord(completed) });
      return 'done';
    } catch (error) {
      await this.removeOutputs(job);
      if (error instanceof JobStopped || controller.signal.reason instanceof JobStopped) {
        this.logger.log(`job ${jobId}: cancelled or its project deleted; stopped, its objects removed`);
        return 'done';
      }
      const reason = (error as Error).message;
      if (!(error instanceof NotMasterable) && item.deliveryCount < attempts) {
        this.logger.warn(`job ${jobId} attempt ${item.deliveryCount} of ${attempts} failed: ${reason}`);
        return 'retry';
      }
      this.logger.warn(`job ${jobId} failed: ${reason}`);
      await this.failJob(job, error instanceof NotMasterable ? reason : `${MASTERING_FAILED}: ${reason.slice(0, 300)}`);
      return error instanceof NotMasterable ? 'done' : 'give-up';
    } finally {
      controller.abort();
      await mastered?.dispose().catch(() => undefined);
    }
  }

  /**
   * The job's plan (master-plan.ts) mastered: full-mix the sounding stems summed and mastered; per-stem and
   * stem-groups each part mastered and their sum brought to the same target. Progress stored and announced
   * every PROGRESS_STORE_MS.
   */
  private async master(job: JobDocument, controller: AbortController): Promise<MasteredSet> {
    const { ownerId, projectId, _id: jobId, parameters } = job;
    const plan = masterPlan(parameters.masterType, await this.media.activeStems(ownerId, projectId));
    if (plan.parts.length === 0) throw new NotMasterable('Nothing to master: the project has no stems, or every stem is muted');
    const parts = await Promise.all(
      plan.parts.map(async (part) => ({
        name: part.name,
        stems: await Promise.all(part.stems.map(async (stem) => ({ input: await this.storage.presignedReadUrl(stem.objectKey), gainDb: stem.volume }))),
      })),
    );
    let storedAt = this.clock.now();
    let reported = 0;
    let storing = false;
    const onProgress = (fraction: number) => {
      const progress = Math.min(99, Math.floor(fraction * 100));
      const now = this.clock.now();
      if (storing || progress <= reported || now - storedAt < PROGRESS_STORE_MS) return;
      storing = true;
      storedAt = now;
      reported = progress;
      void this.jobs
        .setProgress(ownerId, jobId, progress)
        .then((stored) => {
          if (!stored) return controller.abort(new JobStopped());
          this.events.publish({ type: 'job_progress', ownerId, job: toJobRecord(stored) });
        })
        .catch((error: Error) => this.logger.warn(`job ${jobId}: progress not stored: ${error.message}`))
        .finally(() => (storing = false));
    };
    const common = { style: parameters.style, intensity: parameters.intensity as 1 | 2 | 3, onProgress, signal: controller.signal };
    if (!plan.sum) {
      const file = await this.provider.masterMix({ stems: parts[0].stems, ...common });
      return { files: [{ name: MASTER_OUTPUT, path: file.path, contentType: file.contentType }], before: file.before, after: file.after, dispose: file.dispose };
    }
    return this.provider.masterSet({ parts, sum: plan.sum, ...common });
  }

  /** The job failed for good: stored with its reason, its objects removed, the owner told. */
  private async failJob(job: JobDocument, error: string): Promise<void> {
    const failed = await this.jobs.fail(job.ownerId, job._id, error);
    await this.removeOutputs(job);
    if (failed) this.events.publish({ type: 'job_failed', ownerId: job.ownerId, job: toJobRecord(failed) });
  }

  private removeOutputs(job: JobDocument): Promise<void> {
    return this.storage.removePrefix(masterJobPrefix(job.ownerId, job.projectId, job._id)).catch((error: Error) => {
      this.logger.warn(`job ${job._id}: could not remove its objects: ${error.message}`);
    });
  }
}
