import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import { ListStemsReply, MEDIA_SUBJECTS, ObjectLocationReply, ProjectReply, type StemAudioRequest, type StemRecord, type StemVersion } from '@stemdeck/proto';
import type { ProjectFacts, ProjectReads } from '../exports.ports';
import { valueOrNull } from './reply-value';

const MEDIA_TIMEOUT_MS = 10_000;

/** The media service's projects and stems, over its NATS request/reply contracts (owner-scoped there). */
@Injectable()
export class MediaProjectsAdapter implements ProjectReads {
  constructor(private readonly rpc: NatsRpcClient) {}

  async project(ownerId: string, projectId: string): Promise<ProjectFacts | null> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply, MEDIA_TIMEOUT_MS);
    const project = valueOrNull(reply, MEDIA_SUBJECTS.getProject);
    return project && { id: project.id, name: project.name, bpm: project.bpm, key: project.key };
  }

  async stems(ownerId: string, projectId: string): Promise<StemRecord[]> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.listStems, { ownerId, projectId }, ListStemsReply, MEDIA_TIMEOUT_MS);
    return valueOrNull(reply, MEDIA_SUBJECTS.listStems) ?? [];
  }

  async stemObject(ownerId: string, stemId: string, version?: StemVersion): Promise<string> {
    const request: StemAudioRequest = { ownerId, stemId, ...(version ? { version } : {}) };
    const reply = await this.rpc.request(MEDIA_SUBJECTS.stemAudio, request, ObjectLocationReply, MEDIA_TIMEOUT_MS);
    const location = valueOrNull(reply, MEDIA_SUBJECTS.stemAudio);
    if (!location) throw new Error(`stem ${stemId} has no ${version ?? 'played'} audio`);
    return location.objectKey;
  }
}
