import type { ExportWorkMessage, StemRecord, StemVersion } from '@stemdeck/proto';
import type { ExportConfig } from '../config';
import type { ExportDocument } from './export.schema';

/*
 * What the export use-cases need from the world, each behind a token: exports.wiring binds the tokens to the
 * real repository and adapters, the unit specs to small in-memory fakes (./testing).
 */

export type NewExport = Pick<ExportDocument, '_id' | 'ownerId' | 'projectId' | 'kind' | 'request' | 'files' | 'tags' | 'filename' | 'createdAt' | 'expiresAt'>;

/** What a finished export stores. */
export interface ExportResult {
  filename: string;
  objectKey: string;
  contentType: string;
  completedAt: Date;
  expiresAt: Date;
}

/** Export documents, owner-scoped. Changes to a running export return null once it is no longer processing (or gone). */
export interface ExportStore {
  create(doc: NewExport): Promise<ExportDocument>;
  findOwned(ownerId: string, exportId: string): Promise<ExportDocument | null>;
  /** A delivery starts on it: one more attempt. */
  markAttempt(ownerId: string, exportId: string): Promise<void>;
  setProgress(ownerId: string, exportId: string, progress: number): Promise<ExportDocument | null>;
  complete(ownerId: string, exportId: string, result: ExportResult): Promise<ExportDocument | null>;
  /** Failed with words for users; `status` when it was refused (e.g. 409) rather than failed (500). */
  fail(ownerId: string, exportId: string, error: string, status?: number): Promise<ExportDocument | null>;
  /** The owner's exports of the project still processing (being built or waiting for a slot), oldest first. */
  listProcessing(ownerId: string, projectId: string): Promise<ExportDocument[]>;
  /** Exports still processing (not waiting for a slot) that were created before `createdBefore` (oldest first, at most `limit`). */
  listStuck(createdBefore: Date, limit: number): Promise<ExportDocument[]>;
  /** Completed exports whose download expired before `now` and whose objects are still stored (oldest first, at most `limit`). */
  listExpired(now: Date, limit: number): Promise<ExportDocument[]>;
  markPurged(ownerId: string, exportId: string, at: Date): Promise<void>;
  /** Forgets exports (any status) that expired before `cutoff`; answers how many. */
  deleteExpiredBefore(cutoff: Date): Promise<number>;
  deleteForProject(ownerId: string, projectId: string): Promise<void>;
  /** The owner's exports waiting for an export slot, oldest first (their places in line). */
  waitingIds(ownerId: string): Promise<string[]>;
  /** Owners who have exports waiting. */
  ownersWaiting(): Promise<string[]>;
  /** Takes a processing export out of waiting; true only for the call that did (it is handed to the queue once). */
  leaveWaiting(ownerId: string, exportId: string): Promise<boolean>;
}
export const EXPORT_STORE = Symbol('ExportStore');

/** Where the users' export slots are claimed (the database's `job_slots`, shared by every export process). */
export const SLOT_BOARD = Symbol('SlotBoard');

/** A project as exports read it (title, tempo and key go into the files' tags). */
export interface ProjectFacts {
  id: string;
  name: string;
  bpm: number | null;
  key: string | null;
}

/** The media service's projects and stems (owner-scoped there: a foreign project is absent). */
export interface ProjectReads {
  /** null when the project is not the owner's (or does not exist). */
  project(ownerId: string, projectId: string): Promise<ProjectFacts | null>;
  /** The project's active stems (none before its first separation has finished). */
  stems(ownerId: string, projectId: string): Promise<StemRecord[]>;
  /** Where a stem's audio is stored: `version`'s, or the version the mixer plays when absent. */
  stemObject(ownerId: string, stemId: string, version?: StemVersion): Promise<string>;
}
export const PROJECT_READS = Symbol('ProjectReads');

/** A completed mastering job: its id and the names of its outputs (`master.flac`; `vocals.flac`…, `mix.flac`; …). */
export interface MasteringResult {
  jobId: string;
  outputs: string[];
}

/** The jobs service's mastering results. */
export interface MasteringResults {
  /** The project's completed mastering jobs, newest first. */
  completedMasters(ownerId: string, projectId: string): Promise<MasteringResult[]>;
  /** Where one output of a completed job is stored. */
  outputObject(ownerId: string, jobId: string, name: string): Promise<string>;
}
export const MASTERING_RESULTS = Symbol('MasteringResults');

export interface ExportStorage {
  putFile(key: string, path: string, contentType: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
  /** Removes an object and any incomplete multipart upload of it (an upload that failed half-way). */
  discard(key: string): Promise<void>;
}
export const EXPORT_STORAGE = Symbol('ExportStorage');

/** The durable queue exports wait in (the export id also keeps one from being queued twice). */
export interface ExportQueue {
  publish(exportId: string, message: ExportWorkMessage): Promise<void>;
}
export const EXPORT_QUEUE = Symbol('ExportQueue');

/** The settings the export use-cases read. */
export type ExportSettings = Pick<ExportConfig, 'EXPORT_TTL_MINUTES' | 'EXPORT_MAX_DELIVER' | 'EXPORT_WORK_DIR'>;
