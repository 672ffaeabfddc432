import { STEM_TYPES, type SeparationProgress, type StemSet, type StereoAudio } from '../../types';
import { globalSdr } from '../metrics';
import { createFastSeparator } from './fast-separator';
import { fastParameters } from './parameters';

// Typed-array code runs several times slower under jest's module sandbox than in plain node.
jest.setTimeout(30_000);

const inThread = () => createFastSeparator({ threads: 0 });

function maxSumError(stems: StemSet, mixture: StereoAudio): number {
  let max = 0;
  for (const channel of ['left', 'right'] as const) {
    for (let i = 0; i < mixture[channel].length; i++) {
      const sum = STEM_TYPES.reduce((total, stem) => total + stems[stem][channel][i], 0);
      max = Math.max(max, Math.abs(sum - mixture[channel][i]));
    }
  }
  return max;
}

/**
 * A toy multitrack with one textbook source per stem: a centred low sine (bass), a click track (drums),
 * a centred vibrato tone in the vocal range (vocals) and a steady tone panned to the left (other).
 * Deterministic (the clicks' noise comes from a fixed hash).
 */
function toyMultitrack(sampleRate: number, seconds: number): { mixture: StereoAudio; stems: StemSet } {
  const length = Math.round(sampleRate * seconds);
  const stem = (): StereoAudio => ({ sampleRate, left: new Float32Array(length), right: new Float32Array(length) });
  const stems: StemSet = { vocals: stem(), drums: stem(), bass: stem(), other: stem() };
  const clickEvery = Math.round(sampleRate * 0.25);
  const clickDecay = sampleRate * 0.008;
  let vocalPhase = 0;
  for (let t = 0; t < length; t++) {
    const seconds = t / sampleRate;
    const bass = 0.3 * Math.sin(2 * Math.PI * 55 * seconds);
    stems.bass.left[t] = bass;
    stems.bass.right[t] = bass;

    const sinceClick = t % clickEvery;
    const click = 0.8 * Math.exp(-sinceClick / clickDecay) * hashNoise(t);
    stems.drums.left[t] = click;
    stems.drums.right[t] = click;

    // 330 Hz with a 5.5 Hz, ±40 cent vibrato; six harmonics falling off at 6 dB per octave.
    vocalPhase += (2 * Math.PI * 330 * 2 ** ((40 / 1200) * Math.sin(2 * Math.PI * 5.5 * seconds))) / sampleRate;
    let vocal = 0;
    for (let h = 1; h <= 6; h++) vocal += (0.15 / h) * Math.sin(h * vocalPhase);
    stems.vocals.left[t] = vocal;
    stems.vocals.right[t] = vocal;

    const other = 0.1 * (Math.sin(2 * Math.PI * 523.25 * seconds) + 0.5 * Math.sin(2 * Math.PI * 784 * seconds));
    stems.other.left[t] = 0.9 * other;
    stems.other.right[t] = 0.25 * other;
  }
  const mixture = stem();
  for (const type of STEM_TYPES) {
    for (let t = 0; t < length; t++) {
      mixture.left[t] += stems[type].left[t];
      mixture.right[t] += stems[type].right[t];
    }
  }
  return { mixture, stems };
}

/** Uniform noise in [−1, 1) from an integer hash of the sample index. */
function hashNoise(t: number): number {
  let x = Math.imul(t ^ 0x9e3779b9, 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 31 - 1;
}

describe('FastSeparator', () => {
  it('is the fast engine', () => {
    expect(inThread().engine).toBe('fast');
  });

  it('puts a low sine in bass, clicks in drums, a centred vibrato tone in vocals and a panned tone in other', async () => {
    const { mixture, stems } = toyMultitrack(44100, 6);
    const out = await inThread().separate(mixture);
    // ≥ 4 dB: less than 40 % of the source's energy is missing from, or foreign to, its stem.
    const below4dB = STEM_TYPES.filter((stem) => !(globalSdr(stems[stem], out[stem]) >= 4));
    expect(below4dB).toEqual([]);
  });

  it('returns four stems at the input rate and length that add up to the mixture', async () => {
    const { mixture } = toyMultitrack(48000, 2.7);
    const out = await inThread().separate(mixture);
    for (const stem of STEM_TYPES) {
      expect(out[stem].sampleRate).toBe(48000);
      expect(out[stem].left.length).toBe(mixture.left.length);
      expect(out[stem].right.length).toBe(mixture.left.length);
    }
    expect(maxSumError(out, mixture)).toBeLessThan(1e-6);
  });

  it('gives the same stems on every run (no randomness)', async () => {
    const { mixture } = toyMultitrack(22050, 3);
    const [first, second] = [await inThread().separate(mixture), await inThread().separate(mixture)];
    for (const stem of STEM_TYPES) {
      expect(Buffer.from(first[stem].left.buffer).equals(Buffer.from(second[stem].left.buffer))).toBe(true);
      expect(Buffer.from(first[stem].right.buffer).equals(Buffer.from(second[stem].right.buffer))).toBe(true);
    }
  });

  it("takes a tuning's constants instead of its own (a tuning benchmark's hook), the rest from the track's rate", async () => {
    const { mixture } = toyMultitrack(22050, 3);
    const own = await inThread().separate(mixture);
    const same = await createFastSeparator({ threads: 0, tuning: { bassVocalShare: fastParameters(22050).bassVocalShare } }).separate(mixture);
    const tuned = await createFastSeparator({ threads: 0, tuning: { vocalCentreFrom: 0.1, vocalCentreTo: 0.2 } }).separate(mixture);
    expect(Buffer.from(same.vocals.left.buffer).equals(Buffer.from(own.vocals.left.buffer))).toBe(true);
    expect(Buffer.from(tuned.vocals.left.buffer).equals(Buffer.from(own.vocals.left.buffer))).toBe(false);
    expect(maxSumError(tuned, mixture)).toBeLessThan(1e-6);
  });

  it('separates in the calling thread when the worker script is not built (as under jest)', async () => {
    const { mixture } = toyMultitrack(22050, 2);
    const withThreads = await createFastSeparator({ threads: 2 }).separate(mixture);
    const withoutThreads = await inThread().separate(mixture);
    for (const stem of STEM_TYPES) expect(withThreads[stem].left).toEqual(withoutThreads[stem].left);
  });

  it('handles empty and shorter-than-a-frame input', async () => {
    for (const length of [0, 100]) {
      const mixture = { sampleRate: 44100, left: new Float32Array(length).fill(0.25), right: new Float32Array(length) };
      const out = await inThread().separate(mixture);
      for (const stem of STEM_TYPES) expect(out[stem].left.length).toBe(length);
      expect(maxSumError(out, mixture)).toBeLessThan(1e-6);
    }
  });

  it('reports progress from 0 to 1, never going back, over a track of several segments that add up to it', async () => {
    const { mixture } = toyMultitrack(8000, 30.1);
    const fractions: number[] = [];
    const out = await inThread().separate(mixture, ({ fraction }: SeparationProgress) => fractions.push(fraction));
    expect(maxSumError(out, mixture)).toBeLessThan(1e-6);
    expect(fractions[0]).toBe(0);
    expect(fractions[fractions.length - 1]).toBe(1);
    expect(fractions.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]);
  });

  it('rejects channels of different lengths and a missing sample rate', async () => {
    const mixture = { sampleRate: 44100, left: new Float32Array(10), right: new Float32Array(11) };
    await expect(inThread().separate(mixture)).rejects.toThrow(/differ in length/);
    await expect(inThread().separate({ ...mixture, sampleRate: 0, right: mixture.left })).rejects.toThrow(/sample rate/);
  });
});
