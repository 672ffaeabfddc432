/** Where the counts of a window live, shared by every gateway replica (a NATS KV bucket). */
export interface RateWindowStore {
  /**
   * Counts one more request of `key` in the window starting at `windowStart` (ms) and answers its number in
   * the window; past `limit` it may answer limit + 1 without counting it.
   */
  hit(key: string, windowStart: number, limit: number): Promise<number>;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the window ends (when a refused caller may try again). */
  retryAfterSeconds: number;
}

/**
 * A fixed-window counter: at most `limit` requests per key in each window of `windowMs`, counted in a store
 * every replica shares, so two replicas give one user one limit, not two. A window's edge lets through at
 * most twice the limit over a short span (the end of one window and the start of the next).
 */
export class RequestRateLimiter {
  constructor(
    private readonly store: RateWindowStore,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async check(key: string, now: number): Promise<RateDecision> {
    const windowStart = now - (now % this.windowMs);
    const count = await this.store.hit(key, windowStart, this.limit);
    return { allowed: count <= this.limit, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + this.windowMs - now) / 1000)) };
  }
}

export const RATE_LIMITED_MESSAGE = 'Too many changes in a short time. Wait a moment and try again.';
