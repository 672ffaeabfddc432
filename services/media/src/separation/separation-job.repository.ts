import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { EngineName, SeparationJob } from '@stemdeck/proto';
import { findOwnedById } from '@stemdeck/platform';
import type { Model, UpdateQuery } from 'mongoose';
import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { SEPARATION_JOB_MODEL, SeparationJobDocument, SeparationJobStatus } from './separation-job.schema';

/** The job as clients see it; `queuePosition` for one waiting for its owner's slot (its place in their line). */
export const toSeparationJob = (doc: SeparationJobDocument, queuePosition?: number): SeparationJob => ({
  id: doc._id,
  projectId: doc.projectId,
  engine: doc.engine,
  status: doc.status,
  progress: doc.progress,
  error: doc.error,
  partialSeconds: doc.status === 'failed' ? null : (doc.partialSeconds ?? null),
  ...(doc.waiting && doc.status === 'queued' && queuePosition ? { queuePosition } : {}),
});

/** The owner's separation jobs; a project read shows them, so every change drops the owner's cached project reads. */
@Injectable()
export class SeparationJobRepository {
  constructor(
    @InjectModel(SEPARATION_JOB_MODEL) private readonly jobs: Model<SeparationJobDocument>,
    private readonly cache: OwnerReadCache,
  ) {}

  async create(job: Pick<SeparationJobDocument, '_id' | 'ownerId' | 'projectId' | 'engine'>): Promise<SeparationJobDocument> {
    const now = new Date();
    // Every job starts waiting for one of its owner's slots (SeparationSlots hands it to the queue).
    const doc: SeparationJobDocument = { ...job, status: 'queued', progress: 0, error: null, partialSeconds: null, attempts: 0, waiting: true, createdAt: now, updatedAt: now };
    await this.cache.changing(doc.ownerId, 'projects', () => this.jobs.create(doc));
    return doc;
  }

  findOwned(ownerId: string, jobId: string): Promise<SeparationJobDocument | null> {
    return findOwnedById(this.jobs, jobId, ownerId);
  }

  /** The newest job for a project and engine that is not failed (queued, processing or completed). */
  findLive(ownerId: string, projectId: string, engine: EngineName): Promise<SeparationJobDocument | null> {
    return this.jobs
      .findOne({ ownerId, projectId, engine, status: { $ne: 'failed' } })
      .sort({ createdAt: -1 })
      .lean<SeparationJobDocument>()
      .exec();
  }

  async markProcessing(ownerId: string, jobId: string): Promise<void> {
    await this.writeHandedJob(ownerId, jobId, { $set: { status: 'processing', updatedAt: new Date() }, $inc: { attempts: 1 } });
  }

  async setProgress(ownerId: string, jobId: string, progress: number): Promise<void> {
    await this.writeHandedJob(ownerId, jobId, { $set: { progress, updatedAt: new Date() } });
  }

  /** The first `seconds` of every stem are stored and playable. */
  async setPartial(ownerId: string, jobId: string, seconds: number): Promise<void> {
    await this.writeHandedJob(ownerId, jobId, { $set: { partialSeconds: seconds, updatedAt: new Date() } });
  }

  async finish(ownerId: string, jobId: string, status: Extract<SeparationJobStatus, 'completed' | 'failed'>, error: string | null = null) {
    const changes = status === 'completed' ? { status, error, progress: 1 } : { status, error, partialSeconds: null };
    await this.writeHandedJob(ownerId, jobId, { $set: { ...changes, updatedAt: new Date() } });
  }

  /**
   * An unconditional write by the worker that holds the job. The job's id and owner come from media's own work
   * queue and slots (never from a request), and the worker has read the job as this owner's (`findOwned`) before
   * it writes, so the filter is the id alone: the one shape the local database answers without decoding every
   * job ever run — a running separation writes its progress about once a second. Writes that depend on the
   * job's state (leaving the waiting line) keep their whole filter.
   */
  private async writeHandedJob(ownerId: string, jobId: string, update: UpdateQuery<SeparationJobDocument>): Promise<void> {
    await this.cache.changing(ownerId, 'projects', () => this.jobs.updateOne({ _id: jobId }, update).exec());
  }

  /** The newest job per engine of each of the owner's given projects, newest first. */
  async latestPerEngine(ownerId: string, projectIds: string[]): Promise<Map<string, SeparationJobDocument[]>> {
    const latest = new Map<string, SeparationJobDocument[]>();
    if (projectIds.length === 0) return latest;
    const docs = await this.jobs
      .find({ ownerId, projectId: { $in: projectIds } })
      .sort({ createdAt: -1 })
      .lean<SeparationJobDocument[]>()
      .exec();
    for (const doc of docs) {
      const forProject = latest.get(doc.projectId) ?? [];
      if (!forProject.some((job) => job.engine === doc.engine)) forProject.push(doc);
      latest.set(doc.projectId, forProject);
    }
    return latest;
  }

  /** The owner's jobs waiting for a slot, oldest first. */
  async waitingIds(ownerId: string): Promise<string[]> {
    const docs = await this.jobs.find({ waiting: true, ownerId, status: 'queued' }, { _id: 1 }).sort({ createdAt: 1, _id: 1 }).lean<Array<{ _id: string }>>().exec();
    return docs.map((doc) => doc._id);
  }

  async ownersWaiting(): Promise<string[]> {
    const docs = await this.jobs.find({ waiting: true, status: 'queued' }, { ownerId: 1 }).lean<Array<{ ownerId: string }>>().exec();
    return [...new Set(docs.map((doc) => doc.ownerId))];
  }

  /** Takes the job out of waiting; true only for the call that did. */
  async leaveWaiting(ownerId: string, jobId: string): Promise<boolean> {
    const result = await this.cache.changing(ownerId, 'projects', () => this.jobs.updateOne({ _id: jobId, ownerId, waiting: true }, { $set: { waiting: false, updatedAt: new Date() } }).exec());
    return result.modifiedCount === 1;
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    await this.cache.changing(ownerId, 'projects', () => this.jobs.deleteMany({ ownerId, projectId }).exec());
  }
}
