import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { kvKeyOf, SharedKvBucket } from './shared-kv-bucket';
import { HOLD_LIFETIME_MS, holdStep, releaseStep, type UploadHoldStore, type UploadHolds } from './upload-holds';

/** The KV bucket of upload holds: one entry per user, dropped by NATS once untouched for two hold lifetimes. */
export const UPLOAD_HOLDS_BUCKET = 'stemdeck-upload-holds';
/** Compare-and-set rounds before giving up (the upload is then checked without the others' holds, logged). */
const MAX_ROUNDS = 200;

const parse = (value: string | null): UploadHolds => {
  try {
    return value === null ? {} : (JSON.parse(value) as UploadHolds);
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
    return this.bucket.change(
      kvKeyOf(ownerId),
      async (current) => {
        const { next, answer } = await holdStep(parse(current), uploadId, decide, now);
        return { next: next && JSON.stringify(next), answer };
      },
      MAX_ROUNDS,
    );
  }

  async release(ownerId: string, uploadId: string) {
    await this.bucket.change(
      kvKeyOf(ownerId),
      (current) => {
        const next = releaseStep(parse(current), uploadId);
        return { next: next && JSON.stringify(next), answer: undefined };
      },
      MAX_ROUNDS,
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.bucket.close();
  }
}
