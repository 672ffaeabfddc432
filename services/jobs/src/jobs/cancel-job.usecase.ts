import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import { masterJobPrefix, type JobRecord } from '@stemdeck/proto';
import { toJobRecord } from './job-record';
import { JOB_EVENTS, JOB_STORAGE, JOB_STORE, type JobEvents, type JobStorage, type JobStore } from './jobs.ports';

export const JOB_NOT_FOUND = 'Job not found';
export const CANCELLED = 'Cancelled';

/**
 * Cancels a running job: it is marked failed ("Cancelled") at once and its objects removed; the worker
 * running it sees that at its next progress report, stops its processes and removes whatever it wrote since.
 */
@Injectable()
export class CancelJobUseCase {
  constructor(
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'findOwned' | 'fail'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'removePrefix'>,
    @Inject(JOB_EVENTS) private readonly events: JobEvents,
  ) {}

  async execute(ownerId: string, jobId: string): Promise<JobRecord> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) throw new RpcFailure(404, JOB_NOT_FOUND);
    const cancelled = job.status === 'processing' ? await this.jobs.fail(ownerId, jobId, CANCELLED) : null;
    if (!cancelled) throw new RpcFailure(409, 'Only a running job can be cancelled');
    await this.storage.removePrefix(masterJobPrefix(ownerId, job.projectId, jobId));
    const record = toJobRecord(cancelled);
    this.events.publish({ type: 'job_failed', ownerId, job: record });
    return record;
  }
}
