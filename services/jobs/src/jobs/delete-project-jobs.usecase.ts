import { Inject, Injectable } from '@nestjs/common';
import { enhancedPrefix, mastersPrefix, videosPrefix } from '@stemdeck/proto';
import { JOB_STORAGE, JOB_STORE, type JobStorage, type JobStore } from './jobs.ports';

/**
 * A deleted project's jobs go with it: their documents and their outputs (masters, enhanced stems, videos). A job
 * still running on it finds its document gone at its next progress report and removes what it wrote.
 */
@Injectable()
export class DeleteProjectJobsUseCase {
  constructor(
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'deleteForProject'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'removePrefix'>,
  ) {}

  async execute(ownerId: string, projectId: string): Promise<void> {
    await this.jobs.deleteForProject(ownerId, projectId);
    await Promise.all([mastersPrefix, enhancedPrefix, videosPrefix].map((prefix) => this.storage.removePrefix(prefix(ownerId, projectId))));
  }
}
