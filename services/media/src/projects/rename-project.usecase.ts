import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { Project } from '@stemdeck/proto';
import { PROJECT_STORE, type ProjectStore } from './project.ports';
import { PROJECT_NOT_FOUND, toProject } from './project.repository';

export interface RenameProjectCommand {
  ownerId: string;
  projectId: string;
  /** Already trimmed and 1–120 characters (the request schema checks it). */
  name: string;
}

/** Renames one of the owner's projects; a missing project or someone else's is 404 and nothing changes. */
@Injectable()
export class RenameProjectUseCase {
  constructor(@Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'renameOwned'>) {}

  async execute({ ownerId, projectId, name }: RenameProjectCommand): Promise<Project> {
    const project = await this.projects.renameOwned(ownerId, projectId, name);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    return toProject(project);
  }
}
