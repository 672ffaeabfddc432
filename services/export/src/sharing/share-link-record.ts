import type { ShareLinkRecord, ShareLinkStatus } from '@stemdeck/proto';
import type { ShareLinkDocument } from './share-link.schema';

/** Revoked wins over expired: the owner's act is what the panel shows. */
export function shareLinkStatus(link: Pick<ShareLinkDocument, 'expiresAt' | 'revokedAt'>, now: number): ShareLinkStatus {
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** A link as its owner sees it (no token, no hash). */
export const toShareLinkRecord = (link: ShareLinkDocument, now: number): ShareLinkRecord => ({
  id: link._id,
  projectId: link.projectId,
  status: shareLinkStatus(link, now),
  createdAt: link.createdAt.toISOString(),
  expiresAt: link.expiresAt?.toISOString() ?? null,
  revokedAt: link.revokedAt?.toISOString() ?? null,
});
