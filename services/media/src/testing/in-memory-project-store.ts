import type { ProjectStore } from '../projects/project.ports';
import type { ProjectDocument } from '../projects/project.schema';

/** A whole project document with plain defaults (a manual project of 30 s, no audio yet), `fields` on top. */
export const projectDocument = (fields: Partial<ProjectDocument> & Pick<ProjectDocument, '_id' | 'ownerId'>): ProjectDocument => ({
  name: 'song',
  originalFile: 'song.wav',
  duration: 30,
  bpm: null,
  key: null,
  source: 'manual',
  originalKey: null,
  audioKey: null,
  audioContentType: null,
  analysis: null,
  activeEngine: null,
  createdAt: new Date(0),
  ...fields,
});

/** Project documents in a map, owner-scoped like the repository: someone else's project is absent. Hands out copies. */
export class InMemoryProjectStore implements ProjectStore {
  readonly stored = new Map<string, ProjectDocument>();

  /** A project as if it had been stored earlier. */
  add(fields: Partial<ProjectDocument> & Pick<ProjectDocument, '_id' | 'ownerId'>): ProjectDocument {
    const doc = projectDocument(fields);
    this.stored.set(doc._id, doc);
    return doc;
  }

  async create(doc: ProjectDocument): Promise<ProjectDocument> {
    if (this.stored.has(doc._id)) throw new Error(`duplicate key ${doc._id}`);
    this.stored.set(doc._id, { ...doc });
    return doc;
  }

  async findOwned(ownerId: string, projectId: string): Promise<ProjectDocument | null> {
    const doc = this.owned(ownerId, projectId);
    return doc ? { ...doc } : null;
  }

  async listOwned(ownerId: string): Promise<ProjectDocument[]> {
    return [...this.stored.values()]
      .filter((doc) => doc.ownerId === ownerId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((doc) => ({ ...doc }));
  }

  async renameOwned(ownerId: string, projectId: string, name: string): Promise<ProjectDocument | null> {
    const doc = this.owned(ownerId, projectId);
    if (!doc) return null;
    doc.name = name;
    return { ...doc };
  }

  async deleteOwned(ownerId: string, projectId: string): Promise<void> {
    if (this.owned(ownerId, projectId)) this.stored.delete(projectId);
  }

  private owned(ownerId: string, projectId: string): ProjectDocument | undefined {
    const doc = this.stored.get(projectId);
    return doc?.ownerId === ownerId ? doc : undefined;
  }
}
