import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, RpcFailure, type Clock } from '@stemdeck/platform';
import type { ShareLinkRecord } from '@stemdeck/proto';
import { PROJECT_NOT_FOUND } from './create-share-link.usecase';
import { toShareLinkRecord } from './share-link-record';
import { SHARE_LINK_STORE, SHARED_PROJECTS, type SharedProjects, type ShareLinkStore } from './sharing.ports';

/** The owner's links of a project, newest first, each with its status as of now. */
@Injectable()
export class ShareLinkQueries {
  constructor(
    @Inject(SHARE_LINK_STORE) private readonly links: Pick<ShareLinkStore, 'listForProject'>,
    @Inject(SHARED_PROJECTS) private readonly projects: SharedProjects,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 404 for a project that is not the owner's (rather than an empty list that would say it exists). */
  async listForProject(ownerId: string, projectId: string): Promise<ShareLinkRecord[]> {
    if (!(await this.projects.exists(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    const now = this.clock.now();
    return (await this.links.listForProject(ownerId, projectId)).map((link) => toShareLinkRecord(link, now));
  }
}
