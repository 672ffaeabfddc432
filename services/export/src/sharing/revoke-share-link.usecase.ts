import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, RpcFailure, type Clock } from '@stemdeck/platform';
import type { ShareLinkRecord } from '@stemdeck/proto';
import { toShareLinkRecord } from './share-link-record';
import { SHARE_LINK_STORE, type ShareLinkStore } from './sharing.ports';

export const SHARE_LINK_NOT_FOUND = 'Share link not found';

/** Revokes one of the owner's links for good (revoking it again changes nothing); someone else's is 404. */
@Injectable()
export class RevokeShareLinkUseCase {
  constructor(
    @Inject(SHARE_LINK_STORE) private readonly links: Pick<ShareLinkStore, 'revoke'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(ownerId: string, linkId: string): Promise<ShareLinkRecord> {
    const now = this.clock.now();
    const revoked = await this.links.revoke(ownerId, linkId, new Date(now));
    if (!revoked) throw new RpcFailure(404, SHARE_LINK_NOT_FOUND);
    return toShareLinkRecord(revoked, now);
  }
}
