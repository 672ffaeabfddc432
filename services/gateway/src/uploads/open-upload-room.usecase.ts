import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '@stemdeck/platform';
import { MAX_UPLOAD_BYTES } from '@stemdeck/proto';
import { GetStorageUsageUseCase } from '../limits/get-storage-usage.usecase';
import { quotaExceededMessage, storageUsage, type StorageUsage, type UploadUsage } from '../limits/storage-quota';
import { type UploadHoldStore } from '../limits/upload-holds';
import { NatsUploadHolds } from '../limits/upload-holds.kv';
import { FRAMING_BYTES, UploadTooLargeError } from './multipart-upload.adapter';

/** Room in the user's quota for one upload while it streams; `release` once its file is stored or refused. */
export interface UploadRoom {
  /** What the upload may take: `remainingBytes` is its hold; the user's other uploads in flight count as used. */
  usage: UploadUsage;
  release(): Promise<void>;
}

/**
 * Holds room in the user's storage quota for an upload before any of its bytes are stored: what is stored
 * plus what the user's other uploads in flight hold must leave room for the declared length (or, with no
 * length, anything at all, and then the upload holds all that is left, up to the upload limit). Two uploads
 * at once are thus checked against each other, not each against the same free space. When the holds
 * cannot be read (NATS away), the upload is checked against what is stored alone (logged).
 */
@Injectable()
export class OpenUploadRoomUseCase {
  private readonly logger = new Logger(OpenUploadRoomUseCase.name);

  constructor(
    @Inject(GetStorageUsageUseCase) private readonly storageUsage: Pick<GetStorageUsageUseCase, 'execute'>,
    @Inject(NatsUploadHolds) private readonly holds: UploadHoldStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `declaredBytes`: the request's length, multipart framing included (NaN or undefined when unknown). */
  async execute(ownerId: string, declaredBytes: number | undefined): Promise<UploadRoom> {
    const known = Number.isFinite(declaredBytes) && declaredBytes! > 0;
    let stored: StorageUsage | undefined;
    let storageFailure: unknown;
    // What this upload holds: its declared length, or all that is left (up to the limit) when it has none.
    // What is stored is read after the holds (see UploadHoldStore), again on each compare-and-set round.
    const decide = async (othersBytes: number): Promise<number> => {
      stored = await this.storageUsage.execute(ownerId).catch((error: unknown) => {
        storageFailure = error;
        throw error;
      });
      const free = Math.max(0, stored.remainingBytes - othersBytes);
      if (!known) return Math.min(MAX_UPLOAD_BYTES, free);
      return declaredBytes! - FRAMING_BYTES > free ? 0 : Math.min(declaredBytes!, free);
    };
    const uploadId = this.ids.randomUUID();
    let held: { heldBytes: number; othersBytes: number };
    try {
      held = await this.holds.hold(ownerId, uploadId, decide, this.clock.now());
    } catch (error) {
      // Object storage away is the upload's failure (503), not the holds'.
      if (storageFailure) throw storageFailure;
      this.logger.warn(`upload holds unavailable, checking against what is stored alone: ${(error as Error).message}`);
      return { usage: await this.storageUsage.execute(ownerId), release: async () => undefined };
    }
    const { othersBytes } = held;
    if (!stored) throw new Error('the upload holds answered without asking');
    const usage: UploadUsage = {
      ...storageUsage(stored.usedBytes + othersBytes, stored.quotaBytes),
      inProgressBytes: othersBytes,
    };
    if (held.heldBytes === 0) throw new UploadTooLargeError(quotaExceededMessage(usage, known ? declaredBytes : undefined));
    return {
      usage: { ...usage, remainingBytes: held.heldBytes },
      release: () =>
        this.holds.release(ownerId, uploadId).catch((error: Error) => this.logger.warn(`upload hold ${uploadId} not released (it lapses by itself): ${error.message}`)),
    };
  }
}
