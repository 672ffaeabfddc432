import { Inject, Injectable, Logger } from '@nestjs/common';
import { ObjectStorageAdapter, RpcFailure } from '@stemdeck/platform';
import { projectPrefix } from '@stemdeck/proto';
import { MediaEventsPublisher } from '../separation/media-events.publisher';
import { SeparationJobRepository } from '../separation/separation-job.repository';
import { StemRepository } from '../stems/stem.repository';
import { PROJECT_NOT_FOUND, ProjectRepository } from './project.repository';

type Projects = Pick<ProjectRepository, 'findOwned' | 'deleteOwned'>;
type Stems = Pick<StemRepository, 'deleteForProject'>;
type Jobs = Pick<SeparationJobRepository, 'deleteForProject'>;
type Storage = Pick<ObjectStorageAdapter, 'removePrefix' | 'listIncompleteUploads' | 'discard'>;
type Events = Pick<MediaEventsPublisher, 'publish'>;

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
    @Inject(ProjectRepository) private readonly projects: Projects,
    @Inject(StemRepository) private readonly stems: Stems,
    @Inject(SeparationJobRepository) private readonly jobs: Jobs,
    @Inject(ObjectStorageAdapter) private readonly storage: Storage,
    @Inject(MediaEventsPublisher) private readonly events: Events,
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
