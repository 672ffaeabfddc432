import { Inject, Injectable } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { ownerProjectsPrefix } from '@stemdeck/proto';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { UserRepository } from '../users/user.repository';
import { storageUsage, type StorageUsage } from './storage-quota';

/**
 * What a user's projects occupy in object storage against their quota. Counted from the stored objects
 * themselves (every original, extracted track, stem of every engine and version, master, enhancement, video
 * and export lies under the owner's projects prefix), so there is no counter to drift: a deletion anywhere
 * shows at once. The quota is the operator's per-user value when set, else STORAGE_QUOTA_BYTES.
 */
@Injectable()
export class GetStorageUsageUseCase {
  constructor(
    @Inject(ObjectStorageAdapter) private readonly storage: Pick<ObjectStorageAdapter, 'prefixBytes'>,
    @Inject(UserRepository) private readonly users: Pick<UserRepository, 'storageQuotaOf'>,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'STORAGE_QUOTA_BYTES'>,
  ) {}

  async execute(ownerId: string): Promise<StorageUsage> {
    const [usedBytes, quota] = await Promise.all([this.storage.prefixBytes(ownerProjectsPrefix(ownerId)), this.users.storageQuotaOf(ownerId)]);
    return storageUsage(usedBytes, quota ?? this.config.STORAGE_QUOTA_BYTES);
  }
}
