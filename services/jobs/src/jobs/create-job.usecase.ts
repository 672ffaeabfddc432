import { Inject, Injectable } from '@nestjs/common';
import type { EnhanceParameters, JobRecord, MasteringParameters } from '@stemdeck/proto';
import { CLOCK, ID_GENERATOR, RpcFailure, type Clock, type IdGenerator } from '@stemdeck/platform';
import { toJobRecord } from './job-record';
import {
  ENHANCE_PROVIDER,
  JOB_QUEUE,
  JOB_STORE,
  MASTERING_PROVIDER,
  MEDIA_PROJECTS,
  type EnhanceProvider,
  type JobQueue,
  type JobStore,
  type MasteringProvider,
  type MediaProjects,
} from './jobs.ports';

export const PROJECT_NOT_FOUND = 'Project not found';
export const STEMS_NOT_READY = 'Stems are not ready yet';

/** A job to start: its project, and its type with that type's parameters. */
export type NewJobCommand =
  | { projectId: string; type: 'mastering'; parameters: MasteringParameters }
  | { projectId: string; type: 'enhance'; parameters: EnhanceParameters };

/**
 * Starts a job on a project (mastering or enhance): the project must be the owner's (404) and have stems
 * (409); the job is stored as processing, named after the provider that will run it, and queued on the
 * durable work queue, where RunJobUseCase picks it up.
 */
@Injectable()
export class CreateJobUseCase {
  constructor(
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'exists' | 'activeStems'>,
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'create' | 'fail'>,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(MASTERING_PROVIDER) private readonly mastering: Pick<MasteringProvider, 'name'>,
    @Inject(ENHANCE_PROVIDER) private readonly enhance: Pick<EnhanceProvider, 'name'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(ownerId: string, { projectId, type, parameters }: NewJobCommand): Promise<JobRecord> {
    if (!(await this.media.exists(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    if ((await this.media.activeStems(ownerId, projectId)).length === 0) throw new RpcFailure(409, STEMS_NOT_READY);
    const job = await this.jobs.create({
      _id: this.ids.randomUUID(),
      ownerId,
      projectId,
      type,
      provider: (type === 'enhance' ? this.enhance : this.mastering).name,
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
