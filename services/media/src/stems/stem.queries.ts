import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { ObjectLocation, StemRecord } from '@stemdeck/proto';
import { stemContentType } from '@stemdeck/proto';
import { PROJECT_NOT_FOUND, ProjectRepository } from '../projects/project.repository';
import { StemRepository, toStem } from './stem.repository';

type Projects = Pick<ProjectRepository, 'findOwned'>;
type Stems = Pick<StemRepository, 'listOwned' | 'findOwned'>;

/**
 * The owner's stem reads: a project's active stems and where a stem's audio is stored. Another user's stem
 * or project is indistinguishable from a missing one: both are 404. Mixer changes are UpdateStemUseCase's.
 */
@Injectable()
export class StemQueries {
  constructor(
    @Inject(ProjectRepository) private readonly projects: Projects,
    @Inject(StemRepository) private readonly stems: Stems,
  ) {}

  /** The active engine's stems; empty until the first separation has finished. */
  async ofProject(ownerId: string, projectId: string): Promise<StemRecord[]> {
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    if (!project.activeEngine) return [];
    return (await this.stems.listOwned(ownerId, projectId, project.activeEngine)).map(toStem);
  }

  async audioOf(ownerId: string, stemId: string): Promise<ObjectLocation> {
    const stem = await this.stems.findOwned(ownerId, stemId);
    if (!stem) throw new RpcFailure(404, 'Stem not found');
    return { objectKey: stem.objectKey, contentType: stemContentType(stem.objectKey), fileName: `${stem.type}${stem.objectKey.slice(stem.objectKey.lastIndexOf('.'))}` };
  }
}
