import { NatsRpcClient } from '@stemdeck/platform';
import {
  AnalysisReply,
  ListStemsReply,
  MEDIA_SUBJECTS,
  ObjectLocationReply,
  ProjectReply,
  type Project,
  type Reply,
  type SpotifyFeatures,
  type StemRecord,
} from '@stemdeck/proto';

export interface ProjectAnalysis {
  spotifyFeatures: SpotifyFeatures;
  loudnessLufs: number;
}

/** What project-data exports read from the media service; every read is the owner's (null/absent otherwise). */
export interface ProjectMedia {
  /** null when the project is not this owner's (or does not exist). */
  project(ownerId: string, projectId: string): Promise<Project | null>;
  /** null when the project has no analysis yet. */
  analysis(ownerId: string, projectId: string): Promise<ProjectAnalysis | null>;
  /** The active engine's stems; empty before separation has finished. */
  stems(ownerId: string, projectId: string): Promise<StemRecord[]>;
  /** Where the version of the stem the mixer plays is stored. */
  stemObjectKey(ownerId: string, stemId: string): Promise<string>;
}

const MEDIA_TIMEOUT_MS = 10_000;

/** ProjectMedia over the media service's NATS request/reply contracts (owner-scoped there). */
export class MediaProjectReader implements ProjectMedia {
  constructor(private readonly rpc: NatsRpcClient) {}

  async project(ownerId: string, projectId: string): Promise<Project | null> {
    return valueOrNull(await this.rpc.request(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply, MEDIA_TIMEOUT_MS), MEDIA_SUBJECTS.getProject);
  }

  /** Media answers 404 both for a foreign project and for one without analysis; callers ask `project` first. */
  async analysis(ownerId: string, projectId: string): Promise<ProjectAnalysis | null> {
    return valueOrNull(await this.rpc.request(MEDIA_SUBJECTS.projectAnalysis, { ownerId, projectId }, AnalysisReply, MEDIA_TIMEOUT_MS), MEDIA_SUBJECTS.projectAnalysis);
  }

  async stems(ownerId: string, projectId: string): Promise<StemRecord[]> {
    return valueOrNull(await this.rpc.request(MEDIA_SUBJECTS.listStems, { ownerId, projectId }, ListStemsReply, MEDIA_TIMEOUT_MS), MEDIA_SUBJECTS.listStems) ?? [];
  }

  async stemObjectKey(ownerId: string, stemId: string): Promise<string> {
    const location = valueOrNull(await this.rpc.request(MEDIA_SUBJECTS.stemAudio, { ownerId, stemId }, ObjectLocationReply, MEDIA_TIMEOUT_MS), MEDIA_SUBJECTS.stemAudio);
    if (!location) throw new Error(`stem ${stemId} has no audio`);
    return location.objectKey;
  }
}

/** A reply's value; null for 404; anything else unexpected is an error. */
function valueOrNull<T>(reply: Reply<T>, subject: string): T | null {
  if (reply.ok) return reply.value;
  if (reply.status === 404) return null;
  throw new Error(`${subject} answered ${reply.status}: ${reply.message}`);
}
