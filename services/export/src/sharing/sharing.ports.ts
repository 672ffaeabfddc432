import type { ShareLinkDocument } from './share-link.schema';

/*
 * What the share-link use-cases need from the world, each behind a token: sharing.wiring binds them to the
 * real repository and adapter, the unit specs to small in-memory fakes (./testing).
 */

/** Share links, owner-scoped; only a token's hash finds a link without its owner (that is what a token is for). */
export interface ShareLinkStore {
  create(link: ShareLinkDocument): Promise<void>;
  /** Newest first. */
  listForProject(ownerId: string, projectId: string): Promise<ShareLinkDocument[]>;
  /** Marks the owner's link revoked at `at` (an already revoked link keeps its first time); null when it is not theirs. */
  revoke(ownerId: string, linkId: string, at: Date): Promise<ShareLinkDocument | null>;
  findByTokenHash(tokenHash: string): Promise<ShareLinkDocument | null>;
  deleteForProject(ownerId: string, projectId: string): Promise<void>;
}
export const SHARE_LINK_STORE = Symbol('ShareLinkStore');

/** Whether a project is its owner's, asked of the media service (a foreign or deleted project is absent). */
export interface SharedProjects {
  exists(ownerId: string, projectId: string): Promise<boolean>;
}
export const SHARED_PROJECTS = Symbol('SharedProjects');
