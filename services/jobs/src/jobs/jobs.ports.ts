import type { JobEvent, JobProvider, JobWorkMessage, LoudnessFigures, MasteringStyle, StemType } from '@stemdeck/proto';
import type { JobConfig } from './jobs-settings';
import type { JobDocument, JobOutputDocument } from './job.schema';

/*
 * What the job use-cases need from the world, each behind a token: jobs.module binds the tokens to the real
 * repository and adapters (jobs.providers.ts), the unit specs to small in-memory fakes (src/testing).
 */

export type NewJob = Pick<JobDocument, '_id' | 'ownerId' | 'projectId' | 'type' | 'provider' | 'parameters' | 'createdAt'>;
export interface JobResult {
  outputs: JobOutputDocument[];
  before: LoudnessFigures;
  after: LoudnessFigures;
}

/** Job documents, owner-scoped. The changes of a running job return null once it is no longer processing. */
export interface JobStore {
  create(job: NewJob): Promise<JobDocument>;
  findOwned(ownerId: string, jobId: string): Promise<JobDocument | null>;
  /** Newest first. */
  listForProject(ownerId: string, projectId: string): Promise<JobDocument[]>;
  markProcessing(ownerId: string, jobId: string): Promise<void>;
  setProgress(ownerId: string, jobId: string, progress: number): Promise<JobDocument | null>;
  complete(ownerId: string, jobId: string, result: JobResult): Promise<JobDocument | null>;
  fail(ownerId: string, jobId: string, error: string): Promise<JobDocument | null>;
  deleteForProject(ownerId: string, projectId: string): Promise<void>;
}
export const JOB_STORE = Symbol('JobStore');

/** One of a project's active stems with its saved mix and where its audio is. */
export interface ProjectStem {
  id: string;
  type: StemType;
  volume: number;
  muted: boolean;
  soloed: boolean;
  objectKey: string;
}

/** What jobs read of a project, asked of the media service (owner-scoped there: a foreign project is absent). */
export interface MediaProjects {
  exists(ownerId: string, projectId: string): Promise<boolean>;
  /** The project's active stems (none before its first separation has finished). */
  activeStems(ownerId: string, projectId: string): Promise<ProjectStem[]>;
}
export const MEDIA_PROJECTS = Symbol('MediaProjects');

export interface JobStorage {
  presignedReadUrl(key: string): Promise<string>;
  putFile(key: string, path: string, contentType: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
}
export const JOB_STORAGE = Symbol('JobStorage');

export interface MasterMixRequest {
  /** The sounding stems (a URL ffmpeg reads each from) with their mixer gain. */
  stems: Array<{ input: string; gainDb: number }>;
  style: MasteringStyle;
  intensity: 1 | 2 | 3;
  /** 0–1 over the whole work. */
  onProgress(fraction: number): void;
  signal: AbortSignal;
}

/** A mastered file on local disk, its figures, and how to remove it (and its scratch files). */
export interface MasteredFile {
  path: string;
  contentType: string;
  before: LoudnessFigures;
  after: LoudnessFigures;
  dispose(): Promise<void>;
}

/** Several parts (each its stems at their mixer gains) mastered on their own, then their sum brought to the same target. */
export interface MasterSetRequest {
  parts: Array<{ name: string; stems: Array<{ input: string; gainDb: number }> }>;
  /** The sum's file name. */
  sum: string;
  style: MasteringStyle;
  intensity: 1 | 2 | 3;
  /** 0–1 over the whole work (every pass weighted by its share). */
  onProgress(fraction: number): void;
  signal: AbortSignal;
}

/** The mastered parts and their sum on local disk; before/after describe the sum. */
export interface MasteredSet {
  files: Array<{ name: string; path: string; contentType: string }>;
  before: LoudnessFigures;
  after: LoudnessFigures;
  dispose(): Promise<void>;
}

/** Who masters: the local engine today, cloud providers behind the same port later. */
export interface MasteringProvider {
  readonly name: JobProvider;
  masterMix(request: MasterMixRequest): Promise<MasteredFile>;
  masterSet(request: MasterSetRequest): Promise<MasteredSet>;
}
export const MASTERING_PROVIDER = Symbol('MasteringProvider');

/** The owner's job event subject; the gateway relays it to their sockets. */
export interface JobEvents {
  publish(event: JobEvent): void;
}
export const JOB_EVENTS = Symbol('JobEvents');

/** The durable queue jobs wait in (the job id also keeps a job from being queued twice). */
export interface JobQueue {
  publish(jobId: string, message: JobWorkMessage): Promise<void>;
}
export const JOB_QUEUE = Symbol('JobQueue');

export type { JobConfig };
