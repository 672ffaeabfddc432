import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import {
  AttachEnhancedStemsReply,
  ListStemsReply,
  MEDIA_SUBJECTS,
  ObjectLocationReply,
  ProjectReply,
  type AttachEnhancedStemsRequest,
  type Reply,
  type StemAudioRequest,
  type StemVersion,
} from '@stemdeck/proto';
import type { EnhancedStemObject, MediaProjects, ProjectFacts, ProjectStem } from '../jobs/jobs.ports';

const MEDIA_TIMEOUT_MS = 10_000;

/** The media service's projects and stems, over its NATS request/reply contracts (owner-scoped there). */
@Injectable()
export class MediaProjectsAdapter implements MediaProjects {
  constructor(private readonly rpc: NatsRpcClient) {}

  async exists(ownerId: string, projectId: string): Promise<boolean> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply, MEDIA_TIMEOUT_MS);
    return valueOrNull(reply, MEDIA_SUBJECTS.getProject) !== null;
  }

  async project(ownerId: string, projectId: string): Promise<ProjectFacts | null> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply, MEDIA_TIMEOUT_MS);
    const project = valueOrNull(reply, MEDIA_SUBJECTS.getProject);
    return project && { name: project.name, durationSeconds: project.duration, bpm: project.bpm };
  }

  async activeStems(ownerId: string, projectId: string, version?: StemVersion): Promise<ProjectStem[]> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.listStems, { ownerId, projectId }, ListStemsReply, MEDIA_TIMEOUT_MS);
    const stems = valueOrNull(reply, MEDIA_SUBJECTS.listStems) ?? [];
    return Promise.all(
      stems.map(async (stem) => {
        // Without a version media answers the one the mixer plays (a master sounds like the mix, enhanced or not).
        const request: StemAudioRequest = { ownerId, stemId: stem.id, ...(version ? { version } : {}) };
        const audio = await this.rpc.request(MEDIA_SUBJECTS.stemAudio, request, ObjectLocationReply, MEDIA_TIMEOUT_MS);
        const location = valueOrNull(audio, MEDIA_SUBJECTS.stemAudio);
        if (!location) throw new Error(`stem ${stem.id} has no audio`);
        return { id: stem.id, type: stem.type, volume: stem.volume, muted: stem.muted, soloed: stem.soloed, objectKey: location.objectKey };
      }),
    );
  }

  async attachEnhancedStems(ownerId: string, projectId: string, jobId: string, stems: EnhancedStemObject[]): Promise<'attached' | 'absent'> {
    const request: AttachEnhancedStemsRequest = { ownerId, projectId, jobId, stems };
    const reply = await this.rpc.request(MEDIA_SUBJECTS.attachEnhancedStems, request, AttachEnhancedStemsReply, MEDIA_TIMEOUT_MS);
    return valueOrNull(reply, MEDIA_SUBJECTS.attachEnhancedStems) === null ? 'absent' : 'attached';
  }
}

/** A reply's value; null for 404 (absent for this owner); anything else unexpected is an error. */
function valueOrNull<T>(reply: Reply<T>, subject: string): T | null {
  if (reply.ok) return reply.value;
  if (reply.status === 404) return null;
  throw new Error(`${subject} answered ${reply.status}: ${reply.message}`);
}
