import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('lets a burst through at once, then refills at its rate up to the burst', () => {
    const bucket = new TokenBucket(3, 2, 0);
    expect([1, 2, 3, 4].map(() => bucket.take(0))).toEqual([true, true, true, false]);
    expect(bucket.take(250)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(500)).toBe(false);
    // A long pause fills it to the burst, no further.
    expect([1, 2, 3, 4].map(() => bucket.take(60_000))).toEqual([true, true, true, false]);
  });
});
