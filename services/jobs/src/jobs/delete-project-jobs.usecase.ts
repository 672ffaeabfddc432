import { Inject, Injectable } from '@nestjs/common';
import { enhancedPrefix, mastersPrefix, videosPrefix } from '@stemdeck/proto';
import { JOB_SLOTS, type JobSlotsPort } from './job-slots';
import { JOB_STORAGE, JOB_STORE, type JobStorage, type JobStore } from './jobs.ports';

/**
 * A deleted project's jobs go with it: their documents and their outputs (masters, enhanced stems, videos). A job
 * still running on it finds its document gone at its next progress report and removes what it wrote (its
 * worker then gives its slot back); the owner's jobs still waiting behind the deleted ones are told their new places.
 */
@Injectable()
export class DeleteProjectJobsUseCase {
  constructor(
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'deleteForProject'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'removePrefix'>,
    @Inject(JOB_SLOTS) private readonly slots: Pick<JobSlotsPort, 'announcePlaces'>,
  ) {}

  async execute(ownerId: string, projectId: string): Promise<void> {
    await this.jobs.deleteForProject(ownerId, projectId);
    await Promise.all([mastersPrefix, enhancedPrefix, videosPrefix].map((prefix) => this.storage.removePrefix(prefix(ownerId, projectId))));
    await this.slots.announcePlaces(ownerId);
  }
}
