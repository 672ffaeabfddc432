import { Schema } from 'mongoose';

export const SHARE_LINK_MODEL = 'ShareLink';

/**
 * A share link as stored: only the SHA-256 of its token (the token itself is shown to the owner once, at
 * creation), so a copy of the database opens nothing.
 */
export interface ShareLinkDocument {
  _id: string;
  ownerId: string;
  projectId: string;
  /** Hex SHA-256 of the token. */
  tokenHash: string;
  createdAt: Date;
  /** null: until revoked. */
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export const ShareLinkSchema = new Schema<ShareLinkDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    projectId: { type: String, required: true },
    tokenHash: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'share_links' },
);
ShareLinkSchema.index({ tokenHash: 1 }, { unique: true });
ShareLinkSchema.index({ ownerId: 1, projectId: 1, createdAt: -1 });
