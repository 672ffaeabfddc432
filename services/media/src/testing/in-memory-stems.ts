import { STEM_TYPES, type EngineName, type UpdateStemBody } from '@stemdeck/proto';
import type { SeparationStems, StemToStore } from '../separation/separation.ports';
import type { EnhancedStemDocument, StemStore } from '../stems/stem.ports';
import { stemIdOf } from '../stems/stem.repository';
import type { StemDocument } from '../stems/stem.schema';

/**
 * Stem documents in a map, as the repository keeps them: deterministic ids, mixer settings kept on a re-run,
 * owner-scoped reads and changes (someone else's stem is absent). Hands out copies.
 */
export class InMemoryStems implements SeparationStems, StemStore {
  readonly stored = new Map<string, StemDocument>();

  /** A stem as if a separation had stored it earlier (fast engine, mixer at rest), `fields` on top. */
  add(fields: Partial<StemDocument> & Pick<StemDocument, 'ownerId' | 'projectId' | 'type'>): StemDocument {
    const engine = fields.engine ?? 'fast';
    const doc: StemDocument = {
      _id: stemIdOf(fields.projectId, engine, fields.type),
      engine,
      objectKey: `users/${fields.ownerId}/projects/${fields.projectId}/stems/${engine}/${fields.type}.flac`,
      quality: 'fast',
      volume: 0,
      muted: false,
      soloed: false,
      createdAt: new Date(0),
      ...fields,
    };
    this.stored.set(doc._id, doc);
    return doc;
  }

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

  async findOwned(ownerId: string, stemId: string): Promise<StemDocument | null> {
    const stem = this.stored.get(stemId);
    return stem && stem.ownerId === ownerId ? structuredClone(stem) : null;
  }

  async updateOwned(ownerId: string, stemId: string, changes: UpdateStemBody): Promise<StemDocument | null> {
    const stem = this.stored.get(stemId);
    if (!stem || stem.ownerId !== ownerId) return null;
    Object.assign(stem, changes);
    return structuredClone(stem);
  }

  async setEnhanced(ownerId: string, projectId: string, stemId: string, enhanced: EnhancedStemDocument): Promise<StemDocument | null> {
    const stem = this.stored.get(stemId);
    if (!stem || stem.ownerId !== ownerId || stem.projectId !== projectId) return null;
    Object.assign(stem, { enhanced: { ...enhanced }, version: 'enhanced' });
    return structuredClone(stem);
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    for (const [id, stem] of this.stored) if (stem.ownerId === ownerId && stem.projectId === projectId) this.stored.delete(id);
  }
}
