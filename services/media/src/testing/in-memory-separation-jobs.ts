import { MemoryWaitingLine } from '@stemdeck/platform';
import type { EngineName } from '@stemdeck/proto';
import type { SeparationJobDocument } from '../separation/separation-job.schema';
import type { SeparationJobs } from '../separation/separation.ports';

/** Separation jobs in a map, owner-scoped; the newest is the one created last. */
export class InMemorySeparationJobs implements SeparationJobs {
  readonly stored = new Map<string, SeparationJobDocument>();
  private created = 0;

  /** A job as if an earlier request had stored it. */
  add(job: Partial<SeparationJobDocument> & Pick<SeparationJobDocument, '_id' | 'ownerId' | 'projectId' | 'engine'>): SeparationJobDocument {
    const at = new Date(++this.created);
    const stored: SeparationJobDocument = { status: 'queued', progress: 0, error: null, partialSeconds: null, attempts: 0, createdAt: at, updatedAt: at, ...job };
    this.stored.set(stored._id, stored);
    return stored;
  }

  async create(job: Pick<SeparationJobDocument, '_id' | 'ownerId' | 'projectId' | 'engine'>): Promise<SeparationJobDocument> {
    return { ...this.add({ ...job, waiting: true }) };
  }

  private readonly line = new MemoryWaitingLine(() => this.stored.values(), (job) => job.status === 'queued');
  readonly waitingIds = (ownerId: string) => this.line.waitingIds(ownerId);
  readonly ownersWaiting = () => this.line.ownersWaiting();
  readonly leaveWaiting = (ownerId: string, jobId: string) => this.line.leaveWaiting(ownerId, jobId);

  async findOwned(ownerId: string, jobId: string): Promise<SeparationJobDocument | null> {
    const job = this.stored.get(jobId);
    return job && job.ownerId === ownerId ? { ...job } : null;
  }

  async findLive(ownerId: string, projectId: string, engine: EngineName): Promise<SeparationJobDocument | null> {
    const live = [...this.stored.values()]
      .filter((job) => job.ownerId === ownerId && job.projectId === projectId && job.engine === engine && job.status !== 'failed')
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return live[0] ? { ...live[0] } : null;
  }

  async markProcessing(ownerId: string, jobId: string): Promise<void> {
    const job = this.owned(ownerId, jobId);
    if (job) Object.assign(job, { status: 'processing', attempts: job.attempts + 1 });
  }

  async setProgress(ownerId: string, jobId: string, progress: number): Promise<void> {
    const job = this.owned(ownerId, jobId);
    if (job) job.progress = progress;
  }

  async setPartial(ownerId: string, jobId: string, seconds: number): Promise<void> {
    const job = this.owned(ownerId, jobId);
    if (job) job.partialSeconds = seconds;
  }

  async finish(ownerId: string, jobId: string, status: 'completed' | 'failed', error: string | null = null): Promise<void> {
    const job = this.owned(ownerId, jobId);
    if (job) Object.assign(job, status === 'completed' ? { status, error, progress: 1 } : { status, error, partialSeconds: null });
  }

  /**
   * The worker's writes go by id alone, as the repository's do; a caller that writes another owner's job
   * has skipped its read of the job as the owner's (`findOwned`), which the fake reports loudly.
   */
  private owned(ownerId: string, jobId: string): SeparationJobDocument | undefined {
    const job = this.stored.get(jobId);
    if (job && job.ownerId !== ownerId) throw new Error(`job ${jobId} written as ${ownerId}'s without being read as theirs`);
    return job;
  }
}
