import type { FlacStreamEncoder, MediaProbe, Separator, StereoAudio } from '@stemdeck/audio';
import type { EngineName, MediaEvent, SeparationJobMessage } from '@stemdeck/proto';
import type { ProjectDocument } from '../projects/project.schema';
import type { StemDocument } from '../stems/stem.schema';
import type { StreamingSeparator } from './engine-registry';
import type { SeparationJobDocument, SeparationJobStatus } from './separation-job.schema';

/*
 * What the separation use-cases need from the world, each behind a token: media.module binds the tokens
 * to the real repositories and adapters, the unit specs to small in-memory fakes (src/testing).
 */

/** What a separation reads of a project: its audio, length, and whether the ingest steps are still to run. */
export type ProjectToSeparate = Pick<ProjectDocument, '_id' | 'audioKey' | 'duration' | 'source' | 'originalKey' | 'analysis' | 'audioProbe'>;

/** The project reads a separation needs, and the project changes it (and the ingest steps it runs) make. */
export interface SeparationProjects {
  findOwned(ownerId: string, projectId: string): Promise<ProjectToSeparate | null>;
  setActiveEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void>;
  /** The audio the engines and the player read (a video's extracted track); null when the project is gone. */
  setAudioKey(ownerId: string, projectId: string, audioKey: string): Promise<ProjectDocument | null>;
  /** The analysis of the whole recording and its decoded length; null when the project is gone. */
  setAnalysis(ownerId: string, projectId: string, fields: Pick<ProjectDocument, 'duration' | 'bpm' | 'key' | 'analysis'>): Promise<ProjectDocument | null>;
}
export const SEPARATION_PROJECTS = Symbol('SeparationProjects');

/** A stem as a separation stores it: the mixer settings are the owner's and are left as they are. */
export type StemToStore = Omit<StemDocument, '_id' | 'volume' | 'muted' | 'soloed' | 'createdAt'>;

export interface SeparationStems {
  /** Creates the stem's document, or points the existing one at the new object (same id: a re-run overwrites). */
  upsert(stem: StemToStore): Promise<void>;
  /** The owner's stems of one project and engine, in stem-type order. */
  listOwned(ownerId: string, projectId: string, engine: EngineName): Promise<StemDocument[]>;
  deleteForEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void>;
}
export const SEPARATION_STEMS = Symbol('SeparationStems');

export interface SeparationJobs {
  create(job: Pick<SeparationJobDocument, '_id' | 'ownerId' | 'projectId' | 'engine'>): Promise<SeparationJobDocument>;
  findOwned(ownerId: string, jobId: string): Promise<SeparationJobDocument | null>;
  /** The newest job for a project and engine that is not failed (queued, processing or completed). */
  findLive(ownerId: string, projectId: string, engine: EngineName): Promise<SeparationJobDocument | null>;
  markProcessing(ownerId: string, jobId: string): Promise<void>;
  setProgress(ownerId: string, jobId: string, progress: number): Promise<void>;
  /** The first `seconds` of every stem are stored and playable (a client that missed `stems_partial` reads this). */
  setPartial(ownerId: string, jobId: string, seconds: number): Promise<void>;
  finish(ownerId: string, jobId: string, status: Extract<SeparationJobStatus, 'completed' | 'failed'>, error?: string | null): Promise<void>;
  /** The owner's jobs waiting for a separation slot, oldest first. */
  waitingIds(ownerId: string): Promise<string[]>;
  ownersWaiting(): Promise<string[]>;
  /** Takes the job out of waiting; true only for the call that did. */
  leaveWaiting(ownerId: string, jobId: string): Promise<boolean>;
}
export const SEPARATION_JOBS = Symbol('SeparationJobs');

/** Where the users' separation slots are claimed (the database's `job_slots`, shared by every media process). */
export const SLOT_BOARD = Symbol('SlotBoard');

/** The engines: each answers 409 (an RpcFailure) for one that is not installed. */
export interface SeparationEngines {
  get(engine: EngineName): Separator;
  model(engine: Exclude<EngineName, 'fast'>): StreamingSeparator;
}
export const SEPARATION_ENGINES = Symbol('SeparationEngines');

/** The part of object storage a separation reads the mixture from and writes the stems to. */
export interface StemStorage {
  presignedReadUrl(key: string): Promise<string>;
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
}
export const STEM_STORAGE = Symbol('StemStorage');

/** One stem's FLAC encoder: samples in, encoded bytes out of `output`, `done` settles with its exit. */
export type StemEncoder = Pick<FlacStreamEncoder, 'output' | 'done' | 'write' | 'end' | 'abort'>;

/** ffprobe and ffmpeg as a separation uses them: read the mixture as it decodes, encode the stems. */
export interface SeparationMediaTools {
  probe(input: string): Promise<MediaProbe>;
  /** A video's first audio track as FLAC bytes; `done` settles with ffmpeg's exit. */
  extractAudioTrack(input: string): { stream: AsyncIterable<Buffer>; done: Promise<void> };
  decodeStream(input: string, probe?: MediaProbe): AsyncGenerator<StereoAudio>;
  flacEncoder(sampleRate: number): StemEncoder;
}
export const SEPARATION_MEDIA_TOOLS = Symbol('SeparationMediaTools');

/** The owner's event subject (progress, partial and ready stems, failures); the gateway relays it to their sockets. */
export interface SeparationEvents {
  publish(event: MediaEvent): void;
}
export const SEPARATION_EVENTS = Symbol('SeparationEvents');

/** The durable queue separation jobs wait in (the job id also keeps a job from being queued twice). */
export interface SeparationJobQueue {
  publish(jobId: string, message: SeparationJobMessage): Promise<void>;
}
export const SEPARATION_JOB_QUEUE = Symbol('SeparationJobQueue');

/**
 * The ingest's steps in an upload's first job, before and beside its separation: a video's audio track is
 * extracted once, and the recording is analysed once (tempo, key, loudness, features) on the same decode
 * the engine reads, then stored and announced as `project_analysed`.
 */
export interface IngestSteps {
  /** The key of the audio the engines read, extracting a video's track first when that was not done yet. */
  audioOf(ownerId: string, project: ProjectToSeparate): Promise<string | null>;
  /** The decode, unchanged; analysed as it passes when the project has no analysis yet (stored at its end). */
  analysing(ownerId: string, project: ProjectToSeparate, decode: DecodedSource): AsyncIterable<StereoAudio>;
}
export const INGEST_STEPS = Symbol('IngestSteps');

/** A decode in progress: its chunks, sample rate and expected length (from the probe). */
export interface DecodedSource {
  chunks: AsyncIterable<StereoAudio>;
  sampleRate: number;
  expectedFrames: number;
}
