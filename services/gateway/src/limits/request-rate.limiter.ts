/** Where the counts of a window live, shared by every gateway replica (a NATS KV bucket). */
export interface RateWindowStore {
  /** The requests of `key` counted in the window starting at `windowStart` (ms); 0 when none. */
  count(key: string, windowStart: number): Promise<number>;
  /**
   * Counts one more request of `key` in the window starting at `windowStart` (ms) and answers its number in
   * the window; past `limit` it may answer limit + 1 without counting it.
   */
  hit(key: string, windowStart: number, limit: number): Promise<number>;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until one more request would pass, if none is sent meanwhile (at least 1). */
  retryAfterSeconds: number;
}

/**
 * A sliding-window counter: at most `limit` requests per key in any span of `windowMs`, counted in a store every
 * replica shares, so two replicas give one user one limit, not two. Counts are kept per fixed window; a request
 * also counts the previous window's requests weighted by how much of that window still lies within the last
 * `windowMs` (taken as spread evenly over it). So a window's edge no longer lets twice the limit through: a burst
 * at the end of one window leaves the next one almost no room until it has slid past.
 */
export class RequestRateLimiter {
  constructor(
    private readonly store: RateWindowStore,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async check(key: string, now: number): Promise<RateDecision> {
    const windowStart = now - (now % this.windowMs);
    const previous = await this.store.count(key, windowStart - this.windowMs);
    const room = this.limit - Math.ceil(previous * this.previousShare(windowStart, now));
    // The room only grows through a window, so whatever this window holds was counted within it: a refused
    // request finds the window holding exactly the room it has now (or nothing, when the room is none yet).
    if (room <= 0) return { allowed: false, retryAfterSeconds: this.secondsUntilRoom(windowStart, now, previous, 0) };
    const count = await this.store.hit(key, windowStart, room);
    if (count <= room) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: this.secondsUntilRoom(windowStart, now, previous, room) };
  }

  /** How much of the previous window still lies within the last `windowMs` at `now`: 1 at the window's start, 0 at its end. */
  private previousShare(windowStart: number, now: number): number {
    return 1 - (now - windowStart) / this.windowMs;
  }

  /**
   * Whole seconds from `now` until one more request fits, nothing more being sent: within this window once the
   * previous one's weighted count has fallen to limit − counted − 1, or else in the next window once this one's has.
   */
  private secondsUntilRoom(windowStart: number, now: number, previous: number, counted: number): number {
    const left = this.limit - counted - 1;
    const at =
      left >= 0 && previous > 0
        ? windowStart + this.windowMs * (1 - left / previous)
        : windowStart + this.windowMs * (2 - (this.limit - 1) / Math.max(counted, 1));
    return Math.max(1, Math.ceil((at - now) / 1000));
  }
}

export const RATE_LIMITED_MESSAGE = 'Too many changes in a short time. Wait a moment and try again.';
