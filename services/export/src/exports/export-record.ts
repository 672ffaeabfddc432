import { exportPrefix, type ExportRecord } from '@stemdeck/proto';
import type { ExportDocument } from './export.schema';

/** A stored export as the service sends it (no object keys, no owner); `queuePosition` for one waiting for its owner's slot. */
export const toExportRecord = (doc: ExportDocument, queuePosition?: number): ExportRecord => ({
  id: doc._id,
  projectId: doc.projectId,
  kind: doc.kind,
  status: doc.status,
  progress: doc.progress,
  filename: doc.filename,
  ...(doc.error ? { error: doc.error } : {}),
  ...(doc.error && doc.errorStatus ? { errorStatus: doc.errorStatus } : {}),
  ...(doc.waiting && doc.status === 'processing' && queuePosition ? { queuePosition } : {}),
  createdAt: doc.createdAt.toISOString(),
  expiresAt: doc.expiresAt.toISOString(),
});

/** The folder of an export's objects (removed as one prefix when it fails, expires or its project is deleted). */
export const exportObjectsPrefix = (doc: Pick<ExportDocument, '_id' | 'ownerId' | 'projectId'>): string => exportPrefix(doc.ownerId, doc.projectId, doc._id);

/**
 * Where an export's file is stored: `export.<ext>` in its folder. Object keys stay plain ASCII whatever the song is
 * called; the song's name is the download's (Content-Disposition), kept on the document.
 */
export const exportObjectKey = (doc: Pick<ExportDocument, '_id' | 'ownerId' | 'projectId'>, filename: string): string => {
  const extension = /\.([a-z0-9]{1,5})$/i.exec(filename)?.[1]?.toLowerCase() ?? 'bin';
  return `${exportObjectsPrefix(doc)}export.${extension}`;
};

/** When a download made at `at` stops working. */
export const expiryAfter = (at: number, ttlMinutes: number): Date => new Date(at + ttlMinutes * 60_000);
