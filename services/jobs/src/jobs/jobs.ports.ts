import type { EnhanceParameters, JobEvent, JobProvider, JobWorkMessage, LoudnessFigures, MasteringStyle, StemType, StemVersion } from '@stemdeck/proto';
import type { RenderedVideo, VideoLook, VideoRenderRequest } from '../video/video-renderer.port';
import type { JobConfig } from './jobs-settings';
import type { JobDocument, JobOutputDocument } from './job.schema';

/*
 * What the job use-cases need from the world, each behind a token: jobs.module binds the tokens to the real
 * repository and adapters (jobs.providers.ts), the unit specs to small in-memory fakes (src/testing).
 */

export type NewJob = Pick<JobDocument, '_id' | 'ownerId' | 'projectId' | 'type' | 'provider' | 'parameters' | 'createdAt'>;
/** What a finished job stores: its outputs and, for a master, the figures of the master (an enhance job's are per output). */
export interface JobResult {
  outputs: JobOutputDocument[];
  before?: LoudnessFigures;
  after?: LoudnessFigures;
}

/** Job documents, owner-scoped. The changes of a running job return null once it is no longer processing. */
export interface JobStore {
  create(job: NewJob): Promise<JobDocument>;
  findOwned(ownerId: string, jobId: string): Promise<JobDocument | null>;
  /** Newest first. */
  listForProject(ownerId: string, projectId: string): Promise<JobDocument[]>;
  /** A delivery starts on it: one more attempt, and no longer finishing (an attempt that died while finishing runs again). */
  markProcessing(ownerId: string, jobId: string): Promise<void>;
  setProgress(ownerId: string, jobId: string, progress: number): Promise<JobDocument | null>;
  /** The job hands its outputs over (to media): from now until it completes or fails, cancel refuses it. */
  beginFinishing(ownerId: string, jobId: string): Promise<JobDocument | null>;
  complete(ownerId: string, jobId: string, result: JobResult): Promise<JobDocument | null>;
  fail(ownerId: string, jobId: string, error: string): Promise<JobDocument | null>;
  /** Fails a processing job that is not finishing (a user's cancel); null otherwise. */
  cancel(ownerId: string, jobId: string, error: string): Promise<JobDocument | null>;
  deleteForProject(ownerId: string, projectId: string): Promise<void>;
  /** The owner's jobs waiting for a job slot, oldest first (their places in line). */
  waitingIds(ownerId: string): Promise<string[]>;
  /** Owners who have jobs waiting. */
  ownersWaiting(): Promise<string[]>;
  /** Takes a processing job out of waiting; true only for the call that did (it is handed to the queue once). */
  leaveWaiting(ownerId: string, jobId: string): Promise<boolean>;
}
export const JOB_STORE = Symbol('JobStore');

/** Where the users' job slots are claimed (the database's `job_slots`, shared by every jobs process). */
export const SLOT_BOARD = Symbol('SlotBoard');

/** One of a project's active stems with its saved mix and where its audio is. */
export interface ProjectStem {
  id: string;
  type: StemType;
  volume: number;
  muted: boolean;
  soloed: boolean;
  objectKey: string;
}

/** An enhance job's output for one stem, as media attaches it. */
export interface EnhancedStemObject {
  stemId: string;
  objectKey: string;
}

/** What a video job reads of a project: its name (the download's), its analysed length and tempo (null until analysed). */
export interface ProjectFacts {
  name: string;
  durationSeconds: number;
  bpm: number | null;
}

/** What jobs read of a project, asked of the media service (owner-scoped there: a foreign project is absent). */
export interface MediaProjects {
  exists(ownerId: string, projectId: string): Promise<boolean>;
  /** The project's facts; null when it is not the owner's (or gone). */
  project(ownerId: string, projectId: string): Promise<ProjectFacts | null>;
  /**
   * The project's active stems (none before its first separation has finished), each with the object of
   * `version`'s audio, or of the version the mixer plays when absent.
   */
  activeStems(ownerId: string, projectId: string, version?: StemVersion): Promise<ProjectStem[]>;
  /**
   * Makes an enhance job's stored outputs its stems' enhanced versions (the mixer switches to them).
   * 'absent' when the project or one of the stems is gone (deleted, or replaced by another separation).
   */
  attachEnhancedStems(ownerId: string, projectId: string, jobId: string, stems: EnhancedStemObject[]): Promise<'attached' | 'absent'>;
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

export interface EnhanceStemRequest {
  /** The stem's audio (a URL ffmpeg reads). */
  input: string;
  enhancements: EnhanceParameters['enhancements'];
  /** 0–1 over this stem's work. */
  onProgress(fraction: number): void;
  signal: AbortSignal;
}

/** An enhanced stem on local disk, its figures before and after, and how to remove it (and its scratch files). */
export type EnhancedFile = MasteredFile;

/** Who enhances: the local engine today, a cloud provider behind the same port later. */
export interface EnhanceProvider {
  readonly name: JobProvider;
  enhanceStem(request: EnhanceStemRequest): Promise<EnhancedFile>;
}
export const ENHANCE_PROVIDER = Symbol('EnhanceProvider');

/**
 * Who renders a music video: the local renderer (render/), or a cloud provider whose clip is fitted to the
 * song (Runway); both answer an H.264/AAC MP4 of the chosen span with the song as its soundtrack.
 */
export interface VideoProvider {
  readonly name: JobProvider;
  render(request: VideoRenderRequest): Promise<ProvidedVideo>;
}
/** A rendered video: the local renderer's look, or a cloud provider's generated clip length (looped over the span). */
export type ProvidedVideo = Omit<RenderedVideo, 'look'> & { look?: VideoLook; clipSeconds?: number };
export const VIDEO_PROVIDER = Symbol('VideoProvider');

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
