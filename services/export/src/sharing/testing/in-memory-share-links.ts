import type { ShareLinkDocument } from '../share-link.schema';
import type { SharedProjects, ShareLinkStore } from '../sharing.ports';

/** Share-link documents in a map, with the repository's owner scoping. */
export class InMemoryShareLinks implements ShareLinkStore {
  readonly docs = new Map<string, ShareLinkDocument>();

  async create(link: ShareLinkDocument): Promise<void> {
    if ([...this.docs.values()].some((doc) => doc.tokenHash === link.tokenHash)) throw new Error('duplicate tokenHash');
    this.docs.set(link._id, { ...link });
  }

  async listForProject(ownerId: string, projectId: string): Promise<ShareLinkDocument[]> {
    return [...this.docs.values()]
      .filter((doc) => doc.ownerId === ownerId && doc.projectId === projectId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((doc) => ({ ...doc }));
  }

  async revoke(ownerId: string, linkId: string, at: Date): Promise<ShareLinkDocument | null> {
    const doc = this.docs.get(linkId);
    if (!doc || doc.ownerId !== ownerId) return null;
    doc.revokedAt ??= at;
    return { ...doc };
  }

  async findByTokenHash(tokenHash: string): Promise<ShareLinkDocument | null> {
    const doc = [...this.docs.values()].find((link) => link.tokenHash === tokenHash);
    return doc ? { ...doc } : null;
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    for (const [id, doc] of this.docs) if (doc.ownerId === ownerId && doc.projectId === projectId) this.docs.delete(id);
  }
}

/** The projects media knows, as owner/project pairs. */
export class FakeSharedProjects implements SharedProjects {
  private readonly owned = new Set<string>();

  add(ownerId: string, projectId: string): this {
    this.owned.add(`${ownerId}/${projectId}`);
    return this;
  }

  async exists(ownerId: string, projectId: string): Promise<boolean> {
    return this.owned.has(`${ownerId}/${projectId}`);
  }
}

/** A clock that moves only when told to. */
export class ManualClock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

/** Ids `link-1`, `link-2`, … in the order they are asked for. */
export class SequentialLinkIds {
  private issued = 0;

  randomUUID(): string {
    return `link-${++this.issued}`;
  }
}
