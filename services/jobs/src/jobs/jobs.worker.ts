import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JobScratch } from '../scratch/job-scratch';
import { JOB_SLOTS, type JobSlotsPort } from './job-slots';
import { JobsQueue } from './jobs-queue';
import { RunJobUseCase } from './run-job.usecase';

/**
 * Pulls jobs from the durable queue once the service is up (each run by its type's runner); stops pulling on
 * shutdown. Before the first job, the scratch folders a crash left under JOBS_WORK_DIR are removed. A job
 * that ended (done, given up, cancelled or gone; not one to retry) gives its owner's slot to their next waiting job.
 */
@Injectable()
export class JobsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobsWorker.name);

  constructor(
    private readonly queue: JobsQueue,
    private readonly runJob: RunJobUseCase,
    private readonly scratch: JobScratch,
    @Inject(JOB_SLOTS) private readonly slots: Pick<JobSlotsPort, 'release'>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const removed = await this.scratch.sweep().catch((error: Error) => {
      this.logger.warn(`scratch folders left by an earlier run not removed: ${error.message}`);
      return [];
    });
    if (removed.length > 0) this.logger.log(`removed ${removed.length} scratch folder(s) left by an earlier run: ${removed.join(', ')}`);
    return this.queue.start(async (item) => {
      const outcome = await this.runJob.execute(item);
      if (outcome !== 'retry') {
        const { ownerId, jobId } = item.payload;
        // Not given back here (the database away): the sweep frees it.
        await this.slots.release(ownerId, jobId).catch((error: Error) => this.logger.warn(`slot of job ${jobId} not released: ${error.message}`));
      }
      return outcome;
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.queue.close();
  }
}
