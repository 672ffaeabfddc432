import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { findOwnedById } from '@stemdeck/platform';
import type { Model } from 'mongoose';
import { JOB_MODEL, type JobDocument } from './job.schema';
import { completed, failed } from './job-changes';
import type { JobResult, JobStore, NewJob } from './jobs.ports';

/** Job documents; every query carries the owner, so another user's job is simply absent. */
@Injectable()
export class JobRepository implements JobStore {
  constructor(@InjectModel(JOB_MODEL) private readonly jobs: Model<JobDocument>) {}

  async create(job: NewJob): Promise<JobDocument> {
    // Every job starts waiting for one of its owner's slots (JobSlots hands it to the work queue).
    const doc: JobDocument = { ...job, status: 'processing', progress: 0, error: null, outputs: [], before: null, after: null, attempts: 0, waiting: true, updatedAt: job.createdAt };
    await this.jobs.create(doc);
    return doc;
  }

  findOwned(ownerId: string, jobId: string): Promise<JobDocument | null> {
    return findOwnedById(this.jobs, jobId, ownerId);
  }

  listForProject(ownerId: string, projectId: string): Promise<JobDocument[]> {
    return this.jobs.find({ ownerId, projectId }).sort({ createdAt: -1, _id: -1 }).lean<JobDocument[]>().exec();
  }

  async markProcessing(ownerId: string, jobId: string): Promise<void> {
    await this.jobs
      .updateOne({ _id: jobId, ownerId, status: 'processing' }, { $inc: { attempts: 1 }, $set: { updatedAt: new Date() } })
      .exec();
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

  cancel(ownerId: string, jobId: string, error: string): Promise<JobDocument | null> {
    return this.jobs
      .findOneAndUpdate({ _id: jobId, ownerId, status: 'processing', finishing: { $ne: true } }, { $set: { ...failed(error), updatedAt: new Date() } }, { new: true })
      .lean<JobDocument>()
      .exec();
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    await this.jobs.deleteMany({ ownerId, projectId }).exec();
  }

  async waitingIds(ownerId: string): Promise<string[]> {
    const docs = await this.jobs.find({ waiting: true, ownerId, status: 'processing' }, { _id: 1 }).sort({ createdAt: 1, _id: 1 }).lean<Array<{ _id: string }>>().exec();
    return docs.map((doc) => doc._id);
  }

  async ownersWaiting(): Promise<string[]> {
    return this.jobs.distinct('ownerId', { waiting: true, status: 'processing' }).exec() as Promise<string[]>;
  }

  async leaveWaiting(ownerId: string, jobId: string): Promise<boolean> {
    const result = await this.jobs.updateOne({ _id: jobId, ownerId, waiting: true, status: 'processing' }, { $set: { waiting: false, updatedAt: new Date() } }).exec();
    return result.modifiedCount === 1;
  }

  /** Changes a job that is still processing (null when it was cancelled, finished or deleted meanwhile). */
  private whileProcessing(ownerId: string, jobId: string, changes: Partial<JobDocument>): Promise<JobDocument | null> {
    return this.jobs
      .findOneAndUpdate({ _id: jobId, ownerId, status: 'processing' }, { $set: { ...changes, updatedAt: new Date() } }, { new: true })
      .lean<JobDocument>()
      .exec();
  }
}
