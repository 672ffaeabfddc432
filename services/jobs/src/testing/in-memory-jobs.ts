import { MemoryWaitingLine } from '@stemdeck/platform';
import type { JobDocument } from '../jobs/job.schema';
import { completed, failed } from '../jobs/job-changes';
import type { JobResult, JobStore, NewJob } from '../jobs/jobs.ports';

/** Job documents in a map, with the repository's owner scoping and "only while processing" rule; new ones wait for a slot, as the repository's do. */
export class InMemoryJobs implements JobStore {
  readonly docs = new Map<string, JobDocument>();

  async create(job: NewJob): Promise<JobDocument> {
    const doc: JobDocument = { ...job, status: 'processing', progress: 0, error: null, outputs: [], before: null, after: null, attempts: 0, waiting: true, updatedAt: job.createdAt };
    this.docs.set(doc._id, doc);
    return { ...doc };
  }

  /** A job as it is once handed to the work queue (its owner had a free slot): no longer waiting. */
  async createRunning(job: NewJob): Promise<JobDocument> {
    await this.create(job);
    await this.leaveWaiting(job.ownerId, job._id);
    return { ...this.docs.get(job._id)! };
  }

  async findOwned(ownerId: string, jobId: string): Promise<JobDocument | null> {
    const doc = this.docs.get(jobId);
    return doc && doc.ownerId === ownerId ? { ...doc } : null;
  }

  async listForProject(ownerId: string, projectId: string): Promise<JobDocument[]> {
    return [...this.docs.values()]
      .filter((doc) => doc.ownerId === ownerId && doc.projectId === projectId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((doc) => ({ ...doc }));
  }

  async markProcessing(ownerId: string, jobId: string): Promise<void> {
    const doc = this.docs.get(jobId);
    if (doc && doc.ownerId === ownerId && doc.status === 'processing') Object.assign(doc, { attempts: doc.attempts + 1 });
  }

  setProgress(ownerId: string, jobId: string, progress: number): Promise<JobDocument | null> {
    return this.whileProcessing(ownerId, jobId, { progress });
  }

  beginFinishing(ownerId: string, jobId: string): Promise<JobDocument | null> {
    return this.whileProcessing(ownerId, jobId, { finishing: true });
  }

  complete(ownerId: string, jobId: string, result: JobResult): Promise<JobDocument | null> {
    return this.whileProcessing(ownerId, jobId, completed(result));
  }

  fail(ownerId: string, jobId: string, error: string): Promise<JobDocument | null> {
    return this.whileProcessing(ownerId, jobId, failed(error));
  }

  async cancel(ownerId: string, jobId: string, error: string): Promise<JobDocument | null> {
    if (this.docs.get(jobId)?.finishing) return null;
    return this.whileProcessing(ownerId, jobId, failed(error));
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    for (const [id, doc] of this.docs) if (doc.ownerId === ownerId && doc.projectId === projectId) this.docs.delete(id);
  }

  private readonly line = new MemoryWaitingLine(() => this.docs.values(), (doc) => doc.status === 'processing');
  readonly waitingIds = (ownerId: string) => this.line.waitingIds(ownerId);
  readonly ownersWaiting = () => this.line.ownersWaiting();
  readonly leaveWaiting = (ownerId: string, jobId: string) => this.line.leaveWaiting(ownerId, jobId);

  private async whileProcessing(ownerId: string, jobId: string, changes: Partial<JobDocument>): Promise<JobDocument | null> {
    const doc = this.docs.get(jobId);
    if (!doc || doc.ownerId !== ownerId || doc.status !== 'processing') return null;
    Object.assign(doc, changes);
    return { ...doc };
  }
}
