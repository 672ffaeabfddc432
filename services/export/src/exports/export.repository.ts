import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { findOwnedById } from '@stemdeck/platform';
import type { Model } from 'mongoose';
import { EXPORT_MODEL, type ExportDocument } from './export.schema';
import type { ExportResult, ExportStore, NewExport } from './exports.ports';

/** Export documents; every owner's query carries the owner, so another user's export is simply absent. */
@Injectable()
export class ExportRepository implements ExportStore {
  constructor(@InjectModel(EXPORT_MODEL) private readonly exports: Model<ExportDocument>) {}

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
      // Every export starts waiting for one of its owner's slots (ExportSlots hands it to the work queue).
      waiting: true,
      updatedAt: doc.createdAt,
      completedAt: null,
      purgedAt: null,
    };
    await this.exports.create(stored);
    return stored;
  }

  findOwned(ownerId: string, exportId: string): Promise<ExportDocument | null> {
    return findOwnedById(this.exports, exportId, ownerId);
  }

  async markAttempt(ownerId: string, exportId: string): Promise<void> {
    await this.exports.updateOne({ _id: exportId, ownerId, status: 'processing' }, { $inc: { attempts: 1 }, $set: { updatedAt: new Date() } }).exec();
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

  listExpired(now: Date, limit: number): Promise<ExportDocument[]> {
    return this.exports
      .find({ status: 'completed', purgedAt: null, expiresAt: { $lt: now } })
      .sort({ expiresAt: 1 })
      .limit(limit)
      .lean<ExportDocument[]>()
      .exec();
  }

  listProcessing(ownerId: string, projectId: string): Promise<ExportDocument[]> {
    return this.exports.find({ ownerId, projectId, status: 'processing' }).sort({ createdAt: 1, _id: 1 }).lean<ExportDocument[]>().exec();
  }

  listStuck(createdBefore: Date, limit: number): Promise<ExportDocument[]> {
    return this.exports
      .find({ status: 'processing', waiting: { $ne: true }, createdAt: { $lt: createdBefore } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<ExportDocument[]>()
      .exec();
  }

  async markPurged(ownerId: string, exportId: string, at: Date): Promise<void> {
    await this.exports.updateOne({ _id: exportId, ownerId }, { $set: { purgedAt: at, updatedAt: at } }).exec();
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    // Only exports whose objects are gone (purged, or failed: they never kept any).
    const { deletedCount } = await this.exports
      .deleteMany({ expiresAt: { $lt: cutoff }, $or: [{ purgedAt: { $ne: null } }, { status: 'failed' }] })
      .exec();
    return deletedCount;
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    await this.exports.deleteMany({ ownerId, projectId }).exec();
  }

  async waitingIds(ownerId: string): Promise<string[]> {
    const docs = await this.exports.find({ waiting: true, ownerId, status: 'processing' }, { _id: 1 }).sort({ createdAt: 1, _id: 1 }).lean<Array<{ _id: string }>>().exec();
    return docs.map((doc) => doc._id);
  }

  async ownersWaiting(): Promise<string[]> {
    return this.exports.distinct('ownerId', { waiting: true, status: 'processing' }).exec() as Promise<string[]>;
  }

  async leaveWaiting(ownerId: string, exportId: string): Promise<boolean> {
    const result = await this.exports.updateOne({ _id: exportId, ownerId, waiting: true, status: 'processing' }, { $set: { waiting: false, updatedAt: new Date() } }).exec();
    return result.modifiedCount === 1;
  }

  /** Changes an export that is still processing (null when it finished, failed or was deleted meanwhile). */
  private whileProcessing(ownerId: string, exportId: string, changes: Partial<ExportDocument>): Promise<ExportDocument | null> {
    return this.exports
      .findOneAndUpdate({ _id: exportId, ownerId, status: 'processing' }, { $set: { ...changes, updatedAt: new Date() } }, { new: true })
      .lean<ExportDocument>()
      .exec();
  }
}
