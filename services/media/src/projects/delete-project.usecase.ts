import { Inject, Injectable, Logger } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import { projectPrefix } from '@stemdeck/proto';
import { SEPARATION_EVENTS, type SeparationEvents } from '../separation/separation.ports';
import { STEM_STORE, type StemStore } from '../stems/stem.ports';
import { PROJECT_JOBS, PROJECT_STORAGE, PROJECT_STORE, type ProjectJobs, type ProjectStorage, type ProjectStore } from './project.ports';
import { PROJECT_NOT_FOUND } from './project.repository';

/**
 * Removes a project and everything kept for it: its documents (project, stems of every engine, separation
 * jobs) and every object under its storage prefix (original, extracted audio, stems, anything a later
 * feature writes there), including multipart uploads still open. The project document goes first, so a
 * separation still running finds no project and discards its own output. `project_deleted` then tells the
 * owner's other tabs and any service keeping its own records of the project.
 */
@Injectable()
export class DeleteProjectUseCase {
  private readonly logger = new Logger(DeleteProjectUseCase.name);

  constructor(
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'findOwned' | 'deleteOwned'>,
    @Inject(STEM_STORE) private readonly stems: Pick<StemStore, 'deleteForProject'>,
    @Inject(PROJECT_JOBS) private readonly jobs: Pick<ProjectJobs, 'deleteForProject'>,
    @Inject(PROJECT_STORAGE) private readonly storage: ProjectStorage,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
  ) {}

  async execute(ownerId: string, projectId: string): Promise<{ id: string }> {
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    await this.projects.deleteOwned(ownerId, projectId);
    await Promise.all([this.stems.deleteForProject(ownerId, projectId), this.jobs.deleteForProject(ownerId, projectId)]);
    const prefix = projectPrefix(ownerId, projectId);
    for (const key of await this.storage.listIncompleteUploads(prefix)) await this.storage.discard(key);
    await this.storage.removePrefix(prefix);
    this.logger.log(`project ${projectId} deleted with everything under ${prefix}`);
    this.events.publish({ type: 'project_deleted', ownerId, projectId });
    return { id: projectId };
  }
}
