import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { JobRecord } from '@stemdeck/proto';
import { jobObjectsPrefix, toJobRecord } from './job-record';
import { JOB_SLOTS, type JobSlotsPort } from './job-slots';
import { JOB_EVENTS, JOB_STORAGE, JOB_STORE, type JobEvents, type JobStorage, type JobStore } from './jobs.ports';

export const JOB_NOT_FOUND = 'Job not found';
export const CANCELLED = 'Cancelled';
export const NOT_RUNNING = 'Only a running job can be cancelled';
export const FINISHING = 'The job is finishing and can no longer be cancelled';

/**
 * Cancels a running job: it is marked failed ("Cancelled") at once and its objects removed; the worker
 * running it sees that at its next progress report, stops its processes and removes whatever it wrote since.
 * A job handing its outputs over (an enhance job's to media) is no longer cancellable: see EnhanceJobRunner.
 * A job still waiting for its owner's slot leaves the line (it is never handed to the queue) and the jobs
 * behind it are told their new places; a running one gives its slot back once its worker has stopped it.
 */
@Injectable()
export class CancelJobUseCase {
  constructor(
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'findOwned' | 'cancel'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'removePrefix'>,
    @Inject(JOB_EVENTS) private readonly events: JobEvents,
    @Inject(JOB_SLOTS) private readonly slots: Pick<JobSlotsPort, 'announcePlaces'>,
  ) {}

  async execute(ownerId: string, jobId: string): Promise<JobRecord> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) throw new RpcFailure(404, JOB_NOT_FOUND);
    const cancelled = job.status === 'processing' ? await this.jobs.cancel(ownerId, jobId, CANCELLED) : null;
    if (!cancelled) throw new RpcFailure(409, job.status === 'processing' ? FINISHING : NOT_RUNNING);
    await this.storage.removePrefix(jobObjectsPrefix(job));
    const record = toJobRecord(cancelled);
    this.events.publish({ type: 'job_failed', ownerId, job: record });
    if (job.waiting) await this.slots.announcePlaces(ownerId);
    return record;
  }
}
