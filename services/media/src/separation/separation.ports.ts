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

/** The project reads a separation needs, and the one project change it makes (which engine's stems it shows). */
export interface SeparationProjects {
  findOwned(ownerId: string, projectId: string): Promise<Pick<ProjectDocument, 'audioKey' | 'duration'> | null>;
  setActiveEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void>;
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
  finish(ownerId: string, jobId: string, status: Extract<SeparationJobStatus, 'completed' | 'failed'>, error?: string | null): Promise<void>;
}
export const SEPARATION_JOBS = Symbol('SeparationJobs');

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
