import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { EngineName, ObjectLocation, StemRecord } from '@stemdeck/proto';
import { stemContentType } from '@stemdeck/proto';
import { PROJECT_STORE, type ProjectStore } from '../projects/project.ports';
import { PROJECT_NOT_FOUND } from '../projects/project.repository';
import { STEM_STORE, type StemStore } from './stem.ports';
import { toStem } from './stem.repository';

/**
 * The owner's stem reads: a project's active stems and where a stem's audio is stored. Another user's stem
 * or project is indistinguishable from a missing one: both are 404. Mixer changes are UpdateStemUseCase's.
 */
@Injectable()
export class StemQueries {
  constructor(
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'findOwned'>,
    @Inject(STEM_STORE) private readonly stems: Pick<StemStore, 'listOwned' | 'findOwned'>,
  ) {}

  /**
   * The active engine's stems (empty until the first separation has finished), or `engine`'s: whatever it
   * has stored, such as a running job's first seconds.
   */
  async ofProject(ownerId: string, projectId: string, engine?: EngineName): Promise<StemRecord[]> {
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    const shown = engine ?? project.activeEngine;
    if (!shown) return [];
    return (await this.stems.listOwned(ownerId, projectId, shown)).map(toStem);
  }

  async audioOf(ownerId: string, stemId: string): Promise<ObjectLocation> {
    const stem = await this.stems.findOwned(ownerId, stemId);
    if (!stem) throw new RpcFailure(404, 'Stem not found');
    return { objectKey: stem.objectKey, contentType: stemContentType(stem.objectKey), fileName: `${stem.type}${stem.objectKey.slice(stem.objectKey.lastIndexOf('.'))}` };
  }
}
