import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import { ListStemsReply, MEDIA_SUBJECTS, ProjectReply, type Reply, type StemRecord } from '@stemdeck/proto';
import type { SessionProjects } from '../sessions.ports';

const MEDIA_TIMEOUT_MS = 10_000;

/** A peer's reply value; null for 404 (absent for this owner); anything else unexpected is an error. */
function valueOrNull<T>(reply: Reply<T>, subject: string): T | null {
  if (reply.ok) return reply.value;
  if (reply.status === 404) return null;
  throw new Error(`${subject} answered ${reply.status}: ${reply.message}`);
}

/** The media service's projects and stems, over its NATS request/reply contracts (owner-scoped there). */
@Injectable()
export class MediaSessionProjects implements SessionProjects {
  constructor(private readonly rpc: NatsRpcClient) {}

  async projectName(ownerId: string, projectId: string): Promise<string | null> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply, MEDIA_TIMEOUT_MS);
    return valueOrNull(reply, MEDIA_SUBJECTS.getProject)?.name ?? null;
  }

  async stems(ownerId: string, projectId: string): Promise<StemRecord[]> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.listStems, { ownerId, projectId }, ListStemsReply, MEDIA_TIMEOUT_MS);
    return valueOrNull(reply, MEDIA_SUBJECTS.listStems) ?? [];
  }
}
