import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import { MEDIA_SUBJECTS, ProjectReply } from '@stemdeck/proto';
import type { SharedProjects } from './sharing.ports';

const MEDIA_TIMEOUT_MS = 10_000;

/** Whether a project is its owner's, over media's getProject (owner-scoped there: 404 for anyone else's). */
@Injectable()
export class MediaSharedProjectsAdapter implements SharedProjects {
  constructor(private readonly rpc: NatsRpcClient) {}

  async exists(ownerId: string, projectId: string): Promise<boolean> {
    const reply = await this.rpc.request(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply, MEDIA_TIMEOUT_MS);
    if (reply.ok) return true;
    if (reply.status === 404) return false;
    throw new Error(`${MEDIA_SUBJECTS.getProject} answered ${reply.status}: ${reply.message}`);
  }
}
