import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import type { ExportOptions, ExportRecord, ObjectLocation } from '@stemdeck/proto';
import { PROJECT_NOT_FOUND } from './create-audio-export.usecase';
import { exportOptions } from './export-plan';
import { toExportRecord } from './export-record';
import { ExportRefused } from './export-refused';
import { EXPORT_STORE, MASTERING_RESULTS, PROJECT_READS, type ExportStore, type MasteringResults, type ProjectReads } from './exports.ports';

export const EXPORT_NOT_FOUND = 'Export not found';
export const EXPORT_EXPIRED = 'This download has expired — export again';
export const EXPORT_NOT_READY = 'This export is not ready yet';
export const EXPORT_FAILED = 'This export failed — export again';

/** Reads of the owner's exports (another user's export or project is absent: 404); a waiting one carries its place in the owner's line. */
@Injectable()
export class ExportQueries {
  constructor(
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'findOwned' | 'waitingIds' | 'listProcessing'>,
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'project' | 'stems'>,
    @Inject(MASTERING_RESULTS) private readonly masters: Pick<MasteringResults, 'completedMasters'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(ownerId: string, exportId: string): Promise<ExportRecord> {
    const doc = await this.exports.findOwned(ownerId, exportId);
    if (!doc) throw new ExportRefused(404, EXPORT_NOT_FOUND);
    const line = doc.waiting && doc.status === 'processing' ? await this.exports.waitingIds(ownerId) : [];
    return toExportRecord(doc, line.indexOf(doc._id) + 1 || undefined);
  }

  /**
   * The owner's exports of the project still being built or waiting their turn, oldest first, each waiting one
   * with its place in the owner's line (the export panels show it while their request waits for its file).
   * Another user's project (or a missing one) is 404.
   */
  async running(ownerId: string, projectId: string): Promise<ExportRecord[]> {
    if (!(await this.projects.project(ownerId, projectId))) throw new ExportRefused(404, PROJECT_NOT_FOUND);
    const docs = await this.exports.listProcessing(ownerId, projectId);
    const line = docs.some((doc) => doc.waiting) ? await this.exports.waitingIds(ownerId) : [];
    return docs.map((doc) => toExportRecord(doc, line.indexOf(doc._id) + 1 || undefined));
  }

  /** Where a completed export's file is, for the gateway to stream; 410 once it expired (whether or not the sweep has removed it yet). */
  async download(ownerId: string, exportId: string): Promise<ObjectLocation> {
    const doc = await this.exports.findOwned(ownerId, exportId);
    if (!doc) throw new ExportRefused(404, EXPORT_NOT_FOUND);
    if (doc.status === 'failed') throw new ExportRefused(409, EXPORT_FAILED);
    if (doc.status !== 'completed' || !doc.objectKey) throw new ExportRefused(409, EXPORT_NOT_READY);
    if (doc.purgedAt || doc.expiresAt.getTime() <= this.clock.now()) throw new ExportRefused(410, EXPORT_EXPIRED);
    return { objectKey: doc.objectKey, contentType: doc.contentType ?? 'application/octet-stream', fileName: doc.filename };
  }

  /** Which variants the export panel can offer for the project now. */
  async options(ownerId: string, projectId: string): Promise<ExportOptions> {
    const project = await this.projects.project(ownerId, projectId);
    if (!project) throw new ExportRefused(404, PROJECT_NOT_FOUND);
    const stems = await this.projects.stems(ownerId, projectId);
    const masters = stems.length > 0 ? await this.masters.completedMasters(ownerId, projectId) : [];
    return exportOptions(project.id, { stems, masters });
  }
}
