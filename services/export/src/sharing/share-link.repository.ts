import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { findOwnedById } from '@stemdeck/platform';
import type { Model } from 'mongoose';
import { SHARE_LINK_MODEL, type ShareLinkDocument } from './share-link.schema';
import type { ShareLinkStore } from './sharing.ports';

/** Share-link documents; every query but the token lookup carries the owner, so another user's link is simply absent. */
@Injectable()
export class ShareLinkRepository implements ShareLinkStore {
  constructor(@InjectModel(SHARE_LINK_MODEL) private readonly links: Model<ShareLinkDocument>) {}

  async create(link: ShareLinkDocument): Promise<void> {
    await this.links.create(link);
  }

  listForProject(ownerId: string, projectId: string): Promise<ShareLinkDocument[]> {
    return this.links.find({ ownerId, projectId }).sort({ createdAt: -1, _id: -1 }).lean<ShareLinkDocument[]>().exec();
  }

  async revoke(ownerId: string, linkId: string, at: Date): Promise<ShareLinkDocument | null> {
    const revoked = await this.links
      .findOneAndUpdate({ _id: linkId, ownerId, revokedAt: null }, { $set: { revokedAt: at } }, { new: true })
      .lean<ShareLinkDocument>()
      .exec();
    // Already revoked (or not theirs): read it as it is.
    return revoked ?? findOwnedById(this.links, linkId, ownerId);
  }

  /** The one read without an owner: holding the token is what grants it. */
  findByTokenHash(tokenHash: string): Promise<ShareLinkDocument | null> {
    return this.links.findOne({ tokenHash }).lean<ShareLinkDocument>().exec();
  }

  async deleteForProject(ownerId: string, projectId: string): Promise<void> {
    await this.links.deleteMany({ ownerId, projectId }).exec();
  }
}
