import { STEM_TYPES, type EngineName } from '@stemdeck/proto';
import type { SeparationStems, StemToStore } from '../separation/separation.ports';
import { stemIdOf } from '../stems/stem.repository';
import type { StemDocument } from '../stems/stem.schema';

/** Stem documents in a map, as the repository keeps them: deterministic ids, mixer settings kept on a re-run. */
export class InMemoryStems implements SeparationStems {
  readonly stored = new Map<string, StemDocument>();

  async upsert(stem: StemToStore): Promise<void> {
    const _id = stemIdOf(stem.projectId, stem.engine, stem.type);
    const existing = this.stored.get(_id);
    if (existing && existing.ownerId === stem.ownerId) {
      Object.assign(existing, { objectKey: stem.objectKey, quality: stem.quality });
      return;
    }
    this.stored.set(_id, { ...stem, _id, volume: 0, muted: false, soloed: false, createdAt: new Date(0) });
  }

  async listOwned(ownerId: string, projectId: string, engine: EngineName): Promise<StemDocument[]> {
    return [...this.stored.values()]
      .filter((stem) => stem.ownerId === ownerId && stem.projectId === projectId && stem.engine === engine)
      .sort((a, b) => STEM_TYPES.indexOf(a.type) - STEM_TYPES.indexOf(b.type))
      .map((stem) => ({ ...stem }));
  }

  async deleteForEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void> {
    for (const [id, stem] of this.stored) {
      if (stem.ownerId === ownerId && stem.projectId === projectId && stem.engine === engine) this.stored.delete(id);
    }
  }
}
