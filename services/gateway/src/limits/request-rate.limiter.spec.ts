import { RequestRateLimiter, type RateWindowStore } from './request-rate.limiter';

/** Counts per key and window, as the shared bucket keeps them. */
class MemoryWindows implements RateWindowStore {
  readonly counts = new Map<string, number>();
  async count(key: string, windowStart: number): Promise<number> {
    await Promise.resolve();
    return this.counts.get(`${key}@${windowStart}`) ?? 0;
  }
  async hit(key: string, windowStart: number, limit: number): Promise<number> {
    await Promise.resolve();
    const id = `${key}@${windowStart}`;
    const count = Math.min(limit + 1, (this.counts.get(id) ?? 0) + 1);
    if (count <= limit) this.counts.set(id, count);
    return count;
  }
}

const MINUTE = 60_000;

/** Sends `n` requests at `at` one after another; answers how many passed. */
async function burst(limiter: RequestRateLimiter, n: number, at: number, key = 'user:ana'): Promise<number> {
  let passed = 0;
  for (let i = 0; i < n; i++) if ((await limiter.check(key, at)).allowed) passed++;
  return passed;
}

describe('RequestRateLimiter', () => {
  const start = 1_700_000_040_000; // a minute boundary

  it('allows the limit in a window, refuses the rest with the seconds until one more fits', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 3, MINUTE);
    const decisions = await Promise.all([1, 2, 3, 4, 5].map(() => limiter.check('user:ana', start + 20_500)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    // Three counted in this window: one fits again once a third of them has slid out, 20 s into the next.
    expect(decisions[3]!.retryAfterSeconds).toBe(60);
    expect((await limiter.check('user:ana', start + 60_000 + 19_000)).allowed).toBe(false);
    expect((await limiter.check('user:ana', start + 60_000 + 20_000)).allowed).toBe(true);
  });

  it("keeps each key's count apart: one user over the limit leaves another's untouched", async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 2, MINUTE);
    for (let i = 0; i < 5; i++) await limiter.check('user:ana', start);
    expect((await limiter.check('user:ana', start)).allowed).toBe(false);
    expect((await limiter.check('user:ben', start)).allowed).toBe(true);
    expect((await limiter.check('address:10.0.0.1', start)).allowed).toBe(true);
  });

  it("lets no more than about the limit through across a window's edge (a fixed window let twice through)", async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 600, MINUTE);
    const before = await burst(limiter, 700, start + MINUTE - 100);
    const after = await burst(limiter, 700, start + MINUTE + 100);
    expect(before).toBe(600);
    // 600 weighted by 59.9/60 of the previous window still in the last minute: 599, so one more fits.
    expect(after).toBe(1);
  });

  it('gives the room back as the previous window slides out, at the time Retry-After names', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 10, MINUTE);
    expect(await burst(limiter, 10, start + 30_000)).toBe(10);
    // 15 s into the next window three quarters of the previous one count: 7.5 → 8, room for 2.
    expect(await burst(limiter, 5, start + MINUTE + 15_000)).toBe(2);
    const refused = await limiter.check('user:ana', start + MINUTE + 15_000);
    // Ten counted before, two now: one more fits when the previous ten weigh 7 or less, at 18 s.
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 3 });
    expect((await limiter.check('user:ana', start + MINUTE + 17_900)).allowed).toBe(false);
    expect((await limiter.check('user:ana', start + MINUTE + 18_000)).allowed).toBe(true);
  });

  it('names a Retry-After that has room at exact boundaries too (whole-number arithmetic)', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 10, MINUTE);
    expect(await burst(limiter, 10, start + 30_000)).toBe(10);
    // 39 s into the next window the previous ten weigh 3.5 → 4: six fit, the seventh waits until they weigh 3.
    expect(await burst(limiter, 7, start + MINUTE + 39_000)).toBe(6);
    expect(await limiter.check('user:ana', start + MINUTE + 39_000)).toEqual({ allowed: false, retryAfterSeconds: 3 });
    // As a share, 10 × (1 − 42/60) is 3.0000000000000004 in floating point; counted in whole milliseconds it is 3.
    expect((await limiter.check('user:ana', start + MINUTE + 41_999)).allowed).toBe(false);
    expect((await limiter.check('user:ana', start + MINUTE + 42_000)).allowed).toBe(true);
  });

  it('refuses at the very start of a window after a full one, asking to wait at least a second', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 2, MINUTE);
    expect(await burst(limiter, 2, start + MINUTE - 1)).toBe(2);
    const refused = await limiter.check('user:ana', start + MINUTE);
    expect(refused.allowed).toBe(false);
    // Both of the previous window still count in full: one fits when they weigh 1, half way through.
    expect(refused.retryAfterSeconds).toBe(30);
    expect(await burst(limiter, 1, start + MINUTE + 30_000)).toBe(1);
  });

  it('asks a refused caller to wait at least a second', async () => {
    const limiter = new RequestRateLimiter(new MemoryWindows(), 3, MINUTE);
    expect(await burst(limiter, 3, start)).toBe(3);
    // The last moment of the next window: three weighted by 1 ms of 60 s count 1, so two fit; the third waits.
    expect(await burst(limiter, 2, start + 2 * MINUTE - 1)).toBe(2);
    expect(await limiter.check('user:ana', start + 2 * MINUTE - 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
