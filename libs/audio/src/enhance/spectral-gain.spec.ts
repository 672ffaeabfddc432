import { DEFAULT_GAIN_OPTIONS, expIntegral, SpectralGain } from './spectral-gain';

const BINS = 4;

/** Runs frames of `power` (each BINS values) through a fresh rule; returns each frame's gains. */
function gainsFor(noise: number[], frames: number[][], options = DEFAULT_GAIN_OPTIONS): number[][] {
  const rule = new SpectralGain(Float32Array.from(noise), options);
  const gains = new Float32Array(BINS);
  return frames.map((frame) => {
    rule.apply(Float32Array.from(frame), 0, gains, 0);
    return [...gains];
  });
}

// The floor as the Float32Array of gains holds it.
const floor = Math.fround(Math.pow(10, DEFAULT_GAIN_OPTIONS.gainFloorDb / 20));

describe('SpectralGain (decision-directed)', () => {
  it('passes bins far above the noise (gain → 1) and pulls bins of noise alone down to the floor', () => {
    const noise = [1, 1, 1, 1];
    const steady = Array.from({ length: 50 }, () => [1000, 1, 0.5, 1]);
    const last = gainsFor(noise, steady).at(-1)!;
    expect(last[0]).toBeGreaterThan(0.99);
    for (const k of [1, 2, 3]) expect(last[k]).toBeCloseTo(floor, 5);
  });

  it('follows the noise per bin: the same power is kept where that bin’s noise is low and removed where it is high (coloured noise)', () => {
    // A pink-like profile: 100× more noise in bin 0 than in bin 3; the signal is power 10 in every bin over that noise.
    const noise = [100, 10, 1, 0.1];
    const frames = Array.from({ length: 40 }, () => noise.map((n) => n + 10));
    const last = gainsFor(noise, frames).at(-1)!;
    expect(last[3]).toBeGreaterThan(0.95); // SNR +20 dB
    expect(last[2]).toBeGreaterThan(0.85); // +10 dB
    expect(last[0]).toBeLessThan(0.2); // −10 dB
    for (let k = 1; k < BINS; k++) expect(last[k]).toBeGreaterThanOrEqual(last[k - 1]);
  });

  it('gives a Wiener gain ξ/(1+ξ) from the a-priori SNR of a steady signal (no smoothing)', () => {
    const options = { ...DEFAULT_GAIN_OPTIONS, smoothing: 0 };
    // γ = 5 → ξ = γ − 1 = 4 → G = 0.8.
    const [gains] = gainsFor([1, 1, 1, 1], [[5, 5, 5, 5]], options);
    for (const g of gains) expect(g).toBeCloseTo(0.8, 6);
  });

  it('does not open for a one-frame noise spike after noise (the smoothing that prevents musical noise), but opens for sustained signal', () => {
    const noise = [1, 1, 1, 1];
    const quiet = Array.from({ length: 20 }, () => [1, 1, 1, 1]);
    const spike = gainsFor(noise, [...quiet, [6, 6, 6, 6]]).at(-1)!;
    const unsmoothed = gainsFor(noise, [...quiet, [6, 6, 6, 6]], { ...DEFAULT_GAIN_OPTIONS, smoothing: 0 }).at(-1)!;
    expect(spike[0]).toBeLessThan(0.2);
    expect(unsmoothed[0]).toBeCloseTo(5 / 6, 5);
    const sustained = gainsFor(noise, [...quiet, ...Array.from({ length: 10 }, () => [100, 100, 100, 100])]).at(-1)!;
    expect(sustained[0]).toBeGreaterThan(0.95);
  });

  it('keeps gains finite and at most 1 on digital silence and against a noiseless profile', () => {
    for (const g of gainsFor([0, 0, 0, 0], [[0, 0, 0, 0], [1, 0, 1e-30, 3]]).flat()) {
      expect(Number.isFinite(g)).toBe(true);
      expect(g).toBeLessThanOrEqual(1);
      expect(g).toBeGreaterThanOrEqual(floor);
    }
    // Signal against a noiseless profile passes untouched.
    expect(gainsFor([0, 0, 0, 0], Array.from({ length: 3 }, () => [1, 0.5, 0.1, 0.01])).at(-1)![3]).toBeGreaterThan(0.999);
  });

  it('the log-spectral-amplitude rule gains at least as much as Wiener at low SNR', () => {
    const frames = Array.from({ length: 20 }, () => [1.5, 2, 4, 10]);
    const wiener = gainsFor([1, 1, 1, 1], frames).at(-1)!;
    const lsa = gainsFor([1, 1, 1, 1], frames, { ...DEFAULT_GAIN_OPTIONS, rule: 'lsa' }).at(-1)!;
    for (let k = 0; k < BINS; k++) {
      expect(lsa[k]).toBeGreaterThanOrEqual(wiener[k] - 1e-6);
      expect(lsa[k]).toBeLessThanOrEqual(1);
    }
  });
});

describe('expIntegral (E1)', () => {
  it.each([
    [0.01, 4.0379296],
    [0.1, 1.8229240],
    [0.5, 0.5597736],
    [1, 0.2193839],
    [2, 0.0489005],
    [5, 0.0011483],
    [10, 4.157e-6],
  ])('E1(%p) ≈ %p', (x, expected) => {
    expect(Math.abs(expIntegral(x) - expected) / expected).toBeLessThan(1e-4);
  });
});
