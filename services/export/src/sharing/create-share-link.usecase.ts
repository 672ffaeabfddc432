import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, RpcFailure, type Clock, type IdGenerator } from '@stemdeck/platform';
import type { CreatedShareLink, CreateShareLinkBody } from '@stemdeck/proto';
import { toShareLinkRecord } from './share-link-record';
import { hashShareToken, newShareToken } from './share-token';
import { SHARE_LINK_STORE, SHARED_PROJECTS, type SharedProjects, type ShareLinkStore } from './sharing.ports';

export const PROJECT_NOT_FOUND = 'Project not found';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Creates a share link for one of the owner's projects: a fresh random token, of which only the hash is
 * stored; the token goes back to the owner in this answer and nowhere else.
 */
@Injectable()
export class CreateShareLinkUseCase {
  constructor(
    @Inject(SHARE_LINK_STORE) private readonly links: Pick<ShareLinkStore, 'create'>,
    @Inject(SHARED_PROJECTS) private readonly projects: SharedProjects,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(ownerId: string, projectId: string, body: CreateShareLinkBody): Promise<CreatedShareLink> {
    if (!(await this.projects.exists(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    const now = this.clock.now();
    const token = newShareToken();
    const link = {
      _id: this.ids.randomUUID(),
      ownerId,
      projectId,
      tokenHash: hashShareToken(token),
      createdAt: new Date(now),
      expiresAt: body.expiresInDays === null ? null : new Date(now + body.expiresInDays * DAY_MS),
      revokedAt: null,
    };
    await this.links.create(link);
    return { ...toShareLinkRecord(link, now), token };
  }
}
