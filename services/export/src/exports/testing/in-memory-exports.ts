import { MemoryWaitingLine } from '@stemdeck/platform';
import type { ExportDocument } from '../export.schema';
import type { ExportResult, ExportStore, NewExport } from '../exports.ports';

/** Export documents in a map, with the repository's owner scoping and "only while processing" rule; new ones wait for a slot, as the repository's do. */
export class InMemoryExports implements ExportStore {
  readonly docs = new Map<string, ExportDocument>();

  async create(doc: NewExport): Promise<ExportDocument> {
    const stored: ExportDocument = {
      ...doc,
      status: 'processing',
      progress: 0,
      objectKey: null,
      contentType: null,
      error: null,
      errorStatus: null,
      attempts: 0,
      waiting: true,
      updatedAt: doc.createdAt,
      completedAt: null,
      purgedAt: null,
    };
    this.docs.set(stored._id, stored);
    return { ...stored };
  }

  /** An export as it is once handed to the work queue (its owner had a free slot): no longer waiting. */
  async createRunning(doc: NewExport): Promise<ExportDocument> {
    await this.create(doc);
    await this.leaveWaiting(doc.ownerId, doc._id);
    return { ...this.docs.get(doc._id)! };
  }

  async findOwned(ownerId: string, exportId: string): Promise<ExportDocument | null> {
    const doc = this.docs.get(exportId);
    return doc && doc.ownerId === ownerId ? { ...doc } : null;
  }

  async markAttempt(ownerId: string, exportId: string): Promise<void> {
    const doc = this.docs.get(exportId);
    if (doc && doc.ownerId === ownerId && doc.status === 'processing') doc.attempts += 1;
  }

  setProgress(ownerId: string, exportId: string, progress: number): Promise<ExportDocument | null> {
    return this.whileProcessing(ownerId, exportId, { progress });
  }

  complete(ownerId: string, exportId: string, result: ExportResult): Promise<ExportDocument | null> {
    return this.whileProcessing(ownerId, exportId, { ...result, status: 'completed', progress: 100, error: null });
  }

  fail(ownerId: string, exportId: string, error: string, status?: number): Promise<ExportDocument | null> {
    return this.whileProcessing(ownerId, exportId, { status: 'failed', error, errorStatus: status ?? null, waiting: false });
  }

  async listExpired(now: Date, limit: number): Promise<ExportDocument[]> {
    return [...this.docs.values()]
      .filter((doc) => doc.status === 'completed' && doc.purgedAt === null && doc.expiresAt < now)
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, limit)
      .map((doc) => ({ ...doc }));
  }

  async listProcessing(ownerId: string, projectId: string): Promise<ExportDocument[]> {
    return [...this.docs.values()]
      .filter((doc) => doc.ownerId === ownerId && doc.projectId === projectId && doc.status === 'processing')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id.localeCompare(b._id))
      .map((doc) => ({ ...doc }));
  }

  async listStuck(createdBefore: Date, limit: number): Promise<ExportDocument[]> {
    return [...this.docs.values()]
      .filter((doc) => doc.status === 'processing' && !doc.waiting && doc.createdAt < createdBefore)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .slice(0, limit)
      .map((doc) => ({ ...doc }));
  }

  async markPurged(ownerId: string, exportId: string, at: Date): Promise<void> {
    const doc = this.docs.get(exportId);
    if (doc && doc.ownerId === ownerId) doc.purgedAt = at;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    let deleted = 0;
    for (const [id, doc] of this.docs) {
      if (doc.expiresAt < cutoff && (doc.purgedAt !== null || doc.status === 'failed')) {
        this.docs.delete(id);
        deleted += 1;
      }
    }
    return deleted;
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    for (const [id, doc] of this.docs) if (doc.ownerId === ownerId && doc.projectId === projectId) this.docs.delete(id);
  }

  private readonly line = new MemoryWaitingLine(() => this.docs.values(), (doc) => doc.status === 'processing');
  readonly waitingIds = (ownerId: string) => this.line.waitingIds(ownerId);
  readonly ownersWaiting = () => this.line.ownersWaiting();
  readonly leaveWaiting = (ownerId: string, exportId: string) => this.line.leaveWaiting(ownerId, exportId);

  private async whileProcessing(ownerId: string, exportId: string, changes: Partial<ExportDocument>): Promise<ExportDocument | null> {
    const doc = this.docs.get(exportId);
    if (!doc || doc.ownerId !== ownerId || doc.status !== 'processing') return null;
    Object.assign(doc, changes);
    return { ...doc };
  }
}
