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
 * A sliding-window counter: about `limit` requests per key in any span of `windowMs`, counted in a store every
 * replica shares, so two replicas give one user one limit, not two. Counts are kept per fixed window; a request
 * also counts the previous window's requests weighted by how much of that window still lies within the last
 * `windowMs`, as if they had been spread evenly over it. So a window's edge no longer lets twice the limit
 * through at once (a burst at the end of one window leaves the next almost no room until it has slid past);
 * being an estimate, it can still let nearly twice through over a span just under `windowMs` (a burst at the end
 * of one window, another near the end of the next). The weight is rounded up, so after a window with any request
 * the next one holds at most limit − 1: negligible at the default of 600 a minute, strict at a limit of 1 or 2.
 * All arithmetic is on whole milliseconds and counts, so a Retry-After names a moment that really has room.
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
    const room = this.limit - this.weighted(previous, windowStart + this.windowMs - now);
    // The room grows through a window, so what this window holds was counted with at most the room there is now:
    // a refused request finds it holding that room (nothing, when there is none yet). A request of the previous
    // window still being counted when this one read it, or replicas whose clocks disagree, can make it a little
    // more, and the Retry-After then a little early.
    if (room <= 0) return { allowed: false, retryAfterSeconds: this.secondsUntilRoom(windowStart, now, previous, 0) };
    const count = await this.store.hit(key, windowStart, room);
    if (count <= room) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: this.secondsUntilRoom(windowStart, now, previous, room) };
  }

  /** `count` requests of the previous window weighted by the `overlapMs` of it still within the last window, rounded up. */
  private weighted(count: number, overlapMs: number): number {
    return Math.ceil((count * overlapMs) / this.windowMs);
  }

  /**
   * Whole seconds from `now` until one more request fits, nothing more being sent: within this window once the
   * previous one weighs limit − counted − 1 or less, or else in the next window once this one weighs limit − 1.
   * At most a window and a window / limit away (two windows at a limit of 1).
   */
  private secondsUntilRoom(windowStart: number, now: number, previous: number, counted: number): number {
    const left = this.limit - counted - 1;
    const windowEnd = windowStart + this.windowMs;
    // weighted(c, overlap) <= n exactly when overlap <= n·window / c.
    // Rounded to the whole millisecond on the late side, so that moment has room too.
    const at =
      left >= 0 && previous > 0
        ? windowEnd - Math.floor((left * this.windowMs) / previous)
        : windowEnd + this.windowMs - Math.floor(((this.limit - 1) * this.windowMs) / Math.max(counted, 1));
    return Math.max(1, Math.ceil((at - now) / 1000));
  }
}

export const RATE_LIMITED_MESSAGE = 'Too many changes in a short time. Wait a moment and try again.';
