import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { NATS_RECONNECT_FOREVER } from '@stemdeck/platform';
import { connect, type KV, type NatsConnection } from 'nats';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import type { RateWindowStore } from './request-rate.limiter';

/** The KV bucket of request counts; a window's count outlives it by a window, then NATS drops it. */
export const RATE_WINDOWS_BUCKET = 'stemdeck-rate-windows';
const BUCKET_TTL_MS = 120_000;
/** Compare-and-set rounds before giving up on one count (the guard then lets the request through, logged). */
const MAX_ROUNDS = 500;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A KV key for the count of `key` in the window starting at `windowStart` (KV keys allow [-_=.A-Za-z0-9/]). */
export const rateWindowKey = (key: string, windowStart: number): string => `${Buffer.from(key).toString('base64url')}.${windowStart}`;

/** A write refused because someone else changed the count first (or made it first). */
const isConflict = (error: unknown): boolean => /wrong last sequence|key exists/i.test((error as Error)?.message ?? '');

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
  private readonly logger = new Logger(NatsRateWindows.name);
  private connection?: Promise<NatsConnection>;
  private bucket?: Promise<KV>;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'NATS_URL'>) {}

  async hit(key: string, windowStart: number, limit: number): Promise<number> {
    const bucket = await this.kv();
    const name = rateWindowKey(key, windowStart);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const entry = await bucket.get(name);
      const live = entry !== null && entry.operation === 'PUT';
      const count = live ? Number(decoder.decode(entry.value)) || 0 : 0;
      if (count >= limit) return limit + 1;
      try {
        if (live) await bucket.update(name, encoder.encode(String(count + 1)), entry.revision);
        else await bucket.create(name, encoder.encode(String(count + 1)));
        return count + 1;
      } catch (error) {
        if (!isConflict(error)) throw error;
        // Someone counted first: read again after a moment's jitter, so that a crowd does not collide in step.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
      }
    }
    throw new Error(`the count of ${key} kept changing under ${MAX_ROUNDS} attempts`);
  }

  async onApplicationShutdown(): Promise<void> {
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    this.bucket = undefined;
    await connection?.drain();
  }

  /** The bucket, made if missing; a failure (NATS away) is tried again at the next request. */
  private kv(): Promise<KV> {
    this.connection ??= connect({ servers: this.config.NATS_URL, name: 'stemdeck-gateway-rate', ...NATS_RECONNECT_FOREVER }).catch((error: Error) => {
      this.connection = undefined;
      throw error;
    });
    this.bucket ??= this.connection
      .then((nats) => nats.jetstream().views.kv(RATE_WINDOWS_BUCKET, { ttl: BUCKET_TTL_MS, history: 1 }))
      .catch((error: Error) => {
        this.bucket = undefined;
        this.logger.warn(`rate bucket not ready: ${error.message}`);
        throw error;
      });
    return this.bucket;
  }
}
