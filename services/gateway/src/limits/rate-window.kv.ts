import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import type { RateWindowStore } from './request-rate.limiter';
import { kvKeyOf, SharedKvBucket } from './shared-kv-bucket';

/** The KV bucket of request counts; a window's count outlives it by a window, then NATS drops it. */
export const RATE_WINDOWS_BUCKET = 'stemdeck-rate-windows';
const BUCKET_TTL_MS = 120_000;
/** Compare-and-set rounds before giving up on one count (the guard then lets the request through, logged). */
const MAX_ROUNDS = 500;

/** A KV key for the count of `key` in the window starting at `windowStart` (KV keys allow [-_=.A-Za-z0-9/]). */
export const rateWindowKey = (key: string, windowStart: number): string => `${kvKeyOf(key)}.${windowStart}`;

/**
 * Request counts per key and window in a NATS KV bucket every gateway replica shares: each count is read and
 * written back one higher with compare-and-set on its revision, so concurrent requests on either replica are
 * counted exactly and no more than the limit ever pass; a full window is answered from the read alone (a flood
 * writes nothing). Old windows expire with the bucket's TTL. (The counts were database documents before:
 * FerretDB scans a whole collection for every query, so each count cost more as the hits piled up, and under
 * load the limiter was most of the database's work.)
 */
@Injectable()
export class NatsRateWindows implements RateWindowStore, OnApplicationShutdown {
  private readonly windows: SharedKvBucket;

  constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'NATS_URL'>) {
    this.windows = new SharedKvBucket(config.NATS_URL, RATE_WINDOWS_BUCKET, BUCKET_TTL_MS);
  }

  async count(key: string, windowStart: number): Promise<number> {
    return Number(await this.windows.read(rateWindowKey(key, windowStart))) || 0;
  }

  async hit(key: string, windowStart: number, limit: number): Promise<number> {
    return this.windows.change(
      rateWindowKey(key, windowStart),
      (current) => {
        const count = Number(current) || 0;
        // A full window is answered from the read alone: a flood writes nothing.
        return count >= limit ? { answer: limit + 1 } : { next: String(count + 1), answer: count + 1 };
      },
      MAX_ROUNDS,
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.windows.close();
  }
}
