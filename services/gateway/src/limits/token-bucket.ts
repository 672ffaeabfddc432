/**
 * A token bucket: holds up to `burst` tokens, refilled at `perSecond`; each message takes one. Bursts up to
 * `burst` pass at once, a steady stream at `perSecond`. Time comes from the caller (milliseconds).
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** Takes a token when there is one: true, the message may pass; false, it is over the limit. */
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
