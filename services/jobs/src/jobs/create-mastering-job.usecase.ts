import { Inject, Injectable } from '@nestjs/common';
import type { CreateMasteringJobBody, JobRecord } from '@stemdeck/proto';
import { CLOCK, ID_GENERATOR, RpcFailure, type Clock, type IdGenerator } from '@stemdeck/platform';
import { toJobRecord } from './job-record';
import { JOB_QUEUE, JOB_STORE, MASTERING_PROVIDER, MEDIA_PROJECTS, type JobQueue, type JobStore, type MasteringProvider, type MediaProjects } from './jobs.ports';

export const PROJECT_NOT_FOUND = 'Project not found';
export const STEMS_NOT_READY = 'Stems are not ready yet';

/**
 * Starts mastering a project: the project must be the owner's (404) and have stems (409); the job is stored
 * as processing and queued on the durable work queue, where RunMasteringJobUseCase picks it up.
 */
@Injectable()
export class CreateMasteringJobUseCase {
  constructor(
    @Inject(MEDIA_PROJECTS) private readonly media: MediaProjects,
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'create' | 'fail'>,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(MASTERING_PROVIDER) private readonly provider: Pick<MasteringProvider, 'name'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(ownerId: string, { projectId, parameters }: CreateMasteringJobBody): Promise<JobRecord> {
    if (!(await this.media.exists(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    if ((await this.media.activeStems(ownerId, projectId)).length === 0) throw new RpcFailure(409, STEMS_NOT_READY);
    const job = await this.jobs.create({
      _id: this.ids.randomUUID(),
      ownerId,
      projectId,
      type: 'mastering',
      provider: this.provider.name,
      parameters,
      createdAt: new Date(this.clock.now()),
    });
    try {
      await this.queue.publish(job._id, { jobId: job._id, ownerId });
    } catch (error) {
      await this.jobs.fail(ownerId, job._id, 'The job could not be queued');
      throw error;
    }
    return toJobRecord(job);
  }
}
