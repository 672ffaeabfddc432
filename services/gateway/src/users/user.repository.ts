import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection, Model, Schema } from 'mongoose';
import type { SessionUser } from '../session/session-user';

interface UserDocument extends Omit<SessionUser, 'id'> {
  _id: string;
  lastLoginAt: Date;
  /** An operator's per-user storage quota in bytes, set in the database; absent: the configured default. */
  storageQuotaBytes?: number | null;
}

const userSchema = new Schema<UserDocument>(
  {
    _id: { type: String, required: true },
    email: { type: String, default: null },
    firstName: { type: String, default: null },
    lastName: { type: String, default: null },
    profileImageUrl: { type: String, default: null },
    lastLoginAt: { type: Date, required: true },
    storageQuotaBytes: { type: Number, default: undefined },
  },
  { collection: 'users', versionKey: false },
);

/** Users known to the studio, keyed by the identity provider's subject. */
@Injectable()
export class UserRepository {
  private readonly users: Model<UserDocument>;

  constructor(@InjectConnection() connection: Connection) {
    this.users = connection.models.User ?? connection.model<UserDocument>('User', userSchema);
  }

  async upsertOnLogin(user: SessionUser, at: Date = new Date()): Promise<void> {
    const { id, ...profile } = user;
    await this.users.updateOne({ _id: id }, { $set: { ...profile, lastLoginAt: at } }, { upsert: true });
  }

  /** The operator's quota for this user, or undefined when the configured default applies. */
  async storageQuotaOf(userId: string): Promise<number | undefined> {
    const user = await this.users.findOne({ _id: userId }, { storageQuotaBytes: 1 }).lean();
    const quota = user?.storageQuotaBytes;
    return typeof quota === 'number' && Number.isFinite(quota) && quota >= 0 ? quota : undefined;
  }
}
