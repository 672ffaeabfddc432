import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { conflictPause, isKvConflict, kvKeyOf, SharedKvBucket } from './shared-kv-bucket';
import { HOLD_LIFETIME_MS, heldBytes, liveHolds, type UploadHoldStore, type UploadHolds } from './upload-holds';

/** The KV bucket of upload holds: one entry per user, dropped by NATS once untouched for two hold lifetimes. */
export const UPLOAD_HOLDS_BUCKET = 'stemdeck-upload-holds';
/** Compare-and-set rounds before giving up (the upload is then checked without the others' holds, logged). */
const MAX_ROUNDS = 200;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const parse = (value: Uint8Array): UploadHolds => {
  try {
    return JSON.parse(decoder.decode(value)) as UploadHolds;
  } catch {
    return {};
  }
};

/**
 * Upload holds in a NATS KV bucket both gateway replicas share, one entry per user, each change written with
 * compare-and-set on the entry's revision: two uploads of one user on either replica see each other's hold.
 */
@Injectable()
export class NatsUploadHolds implements UploadHoldStore, OnApplicationShutdown {
  private readonly bucket: SharedKvBucket;

  constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'NATS_URL'>) {
    this.bucket = new SharedKvBucket(config.NATS_URL, UPLOAD_HOLDS_BUCKET, 2 * HOLD_LIFETIME_MS);
  }

  async hold(ownerId: string, uploadId: string, decide: (othersBytes: number) => Promise<number>, now: number) {
    return this.change(ownerId, async (holds) => {
      const live = liveHolds(holds, now);
      const othersBytes = heldBytes(live);
      const bytes = await decide(othersBytes);
      const next = bytes > 0 ? { ...live, [uploadId]: { bytes, until: now + HOLD_LIFETIME_MS } } : undefined;
      return { next, answer: { heldBytes: bytes, othersBytes } };
    });
  }

  async release(ownerId: string, uploadId: string) {
    await this.change(ownerId, async (holds) => {
      if (!(uploadId in holds)) return { next: undefined, answer: undefined };
      const { [uploadId]: _released, ...rest } = holds;
      return { next: rest, answer: undefined };
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.bucket.close();
  }

  /** Reads the user's holds and writes `next` (when there is one) if nobody wrote in between; else again. */
  private async change<T>(ownerId: string, step: (holds: UploadHolds) => Promise<{ next: UploadHolds | undefined; answer: T }>): Promise<T> {
    const kv = await this.bucket.open();
    const key = kvKeyOf(ownerId);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const entry = await kv.get(key);
      const live = entry !== null && entry.operation === 'PUT';
      const { next, answer } = await step(live ? parse(entry.value) : {});
      if (!next) return answer;
      try {
        if (live) await kv.update(key, encoder.encode(JSON.stringify(next)), entry.revision);
        else await kv.create(key, encoder.encode(JSON.stringify(next)));
        return answer;
      } catch (error) {
        if (!isKvConflict(error)) throw error;
        await conflictPause();
      }
    }
    throw new Error(`the upload holds kept changing under ${MAX_ROUNDS} attempts`);
  }
}
