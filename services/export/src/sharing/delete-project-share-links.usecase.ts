import { Inject, Injectable } from '@nestjs/common';
import { SHARE_LINK_STORE, type ShareLinkStore } from './sharing.ports';

/** A deleted project's links go with it (their tokens then answer 404, like any unknown token). */
@Injectable()
export class DeleteProjectShareLinksUseCase {
  constructor(@Inject(SHARE_LINK_STORE) private readonly links: Pick<ShareLinkStore, 'deleteForProject'>) {}

  execute(ownerId: string, projectId: string): Promise<void> {
    return this.links.deleteForProject(ownerId, projectId);
  }
}
