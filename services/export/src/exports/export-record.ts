import { exportPrefix, type ExportRecord } from '@stemdeck/proto';
import type { ExportDocument } from './export.schema';

/** A stored export as the service sends it (no object keys, no owner). */
export const toExportRecord = (doc: ExportDocument): ExportRecord => ({
  id: doc._id,
  projectId: doc.projectId,
  kind: doc.kind,
  status: doc.status,
  progress: doc.progress,
  filename: doc.filename,
  ...(doc.error ? { error: doc.error } : {}),
  ...(doc.error && doc.errorStatus ? { errorStatus: doc.errorStatus } : {}),
  createdAt: doc.createdAt.toISOString(),
  expiresAt: doc.expiresAt.toISOString(),
});

/** The folder of an export's objects (removed as one prefix when it fails, expires or its project is deleted). */
export const exportObjectsPrefix = (doc: Pick<ExportDocument, '_id' | 'ownerId' | 'projectId'>): string => exportPrefix(doc.ownerId, doc.projectId, doc._id);

/** When a download made at `at` stops working. */
export const expiryAfter = (at: number, ttlMinutes: number): Date => new Date(at + ttlMinutes * 60_000);
