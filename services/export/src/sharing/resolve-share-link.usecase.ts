import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, RpcFailure, type Clock } from '@stemdeck/platform';
import { SHARE_LINK_GONE_MESSAGE, type ResolvedShareLink } from '@stemdeck/proto';
import { shareLinkStatus } from './share-link-record';
import { hashShareToken, looksLikeShareToken } from './share-token';
import { SHARE_LINK_STORE, type ShareLinkStore } from './sharing.ports';

/**
 * Who shared what, for a token from a public url: the link is found by the token's hash (the token itself is
 * never compared as text, so its timing says nothing about stored tokens). Unknown → 404, revoked or expired
 * → 410, both with the same words, so a visitor learns nothing more than "not available".
 */
@Injectable()
export class ResolveShareLinkUseCase {
  constructor(
    @Inject(SHARE_LINK_STORE) private readonly links: Pick<ShareLinkStore, 'findByTokenHash'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<ResolvedShareLink> {
    const link = looksLikeShareToken(token) ? await this.links.findByTokenHash(hashShareToken(token)) : null;
    if (!link) throw new RpcFailure(404, SHARE_LINK_GONE_MESSAGE);
    if (shareLinkStatus(link, this.clock.now()) !== 'active') throw new RpcFailure(410, SHARE_LINK_GONE_MESSAGE);
    return { ownerId: link.ownerId, projectId: link.projectId, linkId: link._id, expiresAt: link.expiresAt?.toISOString() ?? null };
  }
}
