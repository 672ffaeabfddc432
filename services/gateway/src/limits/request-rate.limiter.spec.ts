import { RequestRateLimiter, type RateWindowStore } from './request-rate.limiter';

/** Counts per key and window, as the database keeps them. */
class MemoryWindows implements RateWindowStore {
  readonly counts = new Map<string, number>();
  async hit(key: string, windowStart: number, limit: number): Promise<number> {
    await Promise.resolve();
    const id = `${key}@${windowStart}`;
    const count = Math.min(limit + 1, (this.counts.get(id) ?? 0) + 1);
    this.counts.set(id, count);
    return count;
  }
}

describe('RequestRateLimiter', () => {
  const start = 1_700_000_040_000; // a minute boundary

  it('allows the limit in a window, refuses the rest with the seconds left in the window', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 3, 60_000);
    const decisions = await Promise.all([1, 2, 3, 4, 5].map(() => limiter.check('user:ana', start + 20_500)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[3]!.retryAfterSeconds).toBe(40);
    // A new window starts afresh.
    expect((await limiter.check('user:ana', start + 60_000)).allowed).toBe(true);
  });

  it("keeps each key's count apart: one user over the limit leaves another's untouched", async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 2, 60_000);
    for (let i = 0; i < 5; i++) await limiter.check('user:ana', start);
    expect((await limiter.check('user:ana', start)).allowed).toBe(false);
    expect((await limiter.check('user:ben', start)).allowed).toBe(true);
    expect((await limiter.check('address:10.0.0.1', start)).allowed).toBe(true);
  });

  it('asks a refused caller to wait at least a second at the very end of a window', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 1, 60_000);
    await limiter.check('k', start + 59_999);
    expect(await limiter.check('k', start + 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
