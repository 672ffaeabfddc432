import { Logger } from '@nestjs/common';
import { NATS_RECONNECT_FOREVER } from '@stemdeck/platform';
import { connect, type KV, type NatsConnection } from 'nats';

/** A write refused because someone else changed the entry first (or made it first): read again and retry. */
const isKvConflict = (error: unknown): boolean => /wrong last sequence|key exists/i.test((error as Error)?.message ?? '');

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A KV key for any string (KV keys allow only [-_=.A-Za-z0-9/]). */
export const kvKeyOf = (text: string): string => Buffer.from(text).toString('base64url');

/**
 * How long one KV request (or the first connection) may take. Short: the callers fall back when NATS is away
 * (the rate guard lets the request through, an upload is checked against what is stored alone), and each
 * request waits this long before it can.
 */
const KV_TIMEOUT_MS = 1500;

/** A short random pause after a conflict, so that a crowd of writers does not collide in step. */
const conflictPause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * 2));

/** One round of a change: what to write (nothing: the entry stays as it is) and what to answer. */
export interface KvStep<T> {
  next?: string;
  answer: T;
}

/**
 * One NATS KV bucket every gateway replica shares, opened on first use (and made if missing) on a connection
 * of its own; a failure (NATS away) is tried again at the next use.
 */
export class SharedKvBucket {
  private readonly logger: Logger;
  private connection?: Promise<NatsConnection>;
  private bucket?: Promise<KV>;

  constructor(
    private readonly natsUrl: string,
    private readonly name: string,
    private readonly ttlMs: number,
  ) {
    this.logger = new Logger(`SharedKvBucket(${name})`);
  }

  open(): Promise<KV> {
    this.connection ??= connect({ servers: this.natsUrl, name: `stemdeck-gateway-${this.name}`, timeout: KV_TIMEOUT_MS, ...NATS_RECONNECT_FOREVER }).catch((error: Error) => {
      this.connection = undefined;
      throw error;
    });
    this.bucket ??= this.connection
      .then((nats) => nats.jetstream({ timeout: KV_TIMEOUT_MS }).views.kv(this.name, { ttl: this.ttlMs, history: 1 }))
      .catch((error: Error) => {
        this.bucket = undefined;
        this.logger.warn(`bucket not ready: ${error.message}`);
        throw error;
      });
    return this.bucket;
  }

  /** One entry's value, null when there is none (or it was deleted or expired). */
  async read(key: string): Promise<string | null> {
    const entry = await (await this.open()).get(key);
    return entry !== null && entry.operation === 'PUT' ? decoder.decode(entry.value) : null;
  }

  /**
   * Changes one entry with compare-and-set: reads it (null when there is none), asks `step` what to write, and
   * writes it only if nobody wrote in between (on the entry's revision, or creating it); else reads again and
   * asks again, at most `maxRounds` times. `step` may answer without writing.
   */
  async change<T>(key: string, step: (current: string | null) => Promise<KvStep<T>> | KvStep<T>, maxRounds: number): Promise<T> {
    const kv = await this.open();
    for (let round = 0; round < maxRounds; round++) {
      const entry = await kv.get(key);
      const live = entry !== null && entry.operation === 'PUT';
      const { next, answer } = await step(live ? decoder.decode(entry.value) : null);
      if (next === undefined) return answer;
      try {
        if (live) await kv.update(key, encoder.encode(next), entry.revision);
        else await kv.create(key, encoder.encode(next));
        return answer;
      } catch (error) {
        if (!isKvConflict(error)) throw error;
        await conflictPause();
      }
    }
    throw new Error(`${this.name} entry ${key} kept changing under ${maxRounds} attempts`);
  }

  async close(): Promise<void> {
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    this.bucket = undefined;
    await connection?.drain();
  }
}
