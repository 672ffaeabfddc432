import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { EngineName, ObjectLocation, StemRecord, StemVersion } from '@stemdeck/proto';
import { stemContentType } from '@stemdeck/proto';
import { PROJECT_STORE, type ProjectStore } from '../projects/project.ports';
import { PROJECT_NOT_FOUND, PROJECT_READ_KEYS } from '../projects/project.repository';
import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { STEM_STORE, type StemStore } from './stem.ports';
import { STEM_READ_KEYS, toStem } from './stem.repository';

export const NO_ENHANCED_VERSION = 'This stem has no enhanced version';

/** An object served as `<name>.<its key's extension>`, with the content type the extension says. */
const locationOf = (objectKey: string, name: string): ObjectLocation => ({
  objectKey,
  contentType: stemContentType(objectKey),
  fileName: `${name}${objectKey.slice(objectKey.lastIndexOf('.'))}`,
});

/**
 * The owner's stem reads: a project's active stems and where a stem's audio is stored. Another user's stem
 * or project is indistinguishable from a missing one: both are 404. Mixer changes are UpdateStemUseCase's.
 * Reads are kept in the owner's read cache (the project under `projects`, the stems under `stems`) until a
 * change of that kind.
 */
@Injectable()
export class StemQueries {
  constructor(
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'findOwned'>,
    @Inject(STEM_STORE) private readonly stems: Pick<StemStore, 'listOwned' | 'findOwned'>,
    private readonly cache: OwnerReadCache,
  ) {}

  /**
   * The active engine's stems (empty until the first separation has finished), or `engine`'s: whatever it
   * has stored, such as a running job's first seconds.
   */
  async ofProject(ownerId: string, projectId: string, engine?: EngineName): Promise<StemRecord[]> {
    const project = await this.cache.read(ownerId, 'projects', PROJECT_READ_KEYS.document(projectId), () => this.projects.findOwned(ownerId, projectId));
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    const shown = engine ?? project.activeEngine;
    if (!shown) return [];
    return (await this.cache.read(ownerId, 'stems', STEM_READ_KEYS.list(projectId, shown), () => this.stems.listOwned(ownerId, projectId, shown))).map(toStem);
  }

  /**
   * Where a stem's audio is: `version`'s, or the version the mixer plays when absent. The original's object
   * stays the stem's own; the enhanced one is the newest enhance job's output (404 before there is one).
   */
  async audioOf(ownerId: string, stemId: string, version?: StemVersion): Promise<ObjectLocation> {
    const stem = await this.cache.read(ownerId, 'stems', STEM_READ_KEYS.stem(stemId), () => this.stems.findOwned(ownerId, stemId));
    if (!stem) throw new RpcFailure(404, 'Stem not found');
    const shown = version ?? toStem(stem).version;
    if (shown === 'enhanced') {
      if (!stem.enhanced) throw new RpcFailure(404, NO_ENHANCED_VERSION);
      return locationOf(stem.enhanced.objectKey, `${stem.type} (enhanced)`);
    }
    return locationOf(stem.objectKey, stem.type);
  }
}
