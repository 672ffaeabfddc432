/** @jest-environment ./libs/audio/src/separation/onnx/testing/ort-test-environment.js */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InferenceSession } from 'onnxruntime-node';
import { STEM_TYPES, type StemSet, type StereoAudio } from '../../types';
import { expectedTestSeparation, TEST_MODEL_DEFAULT_SEGMENT_SAMPLES, TEST_MODEL_KERNEL_TAPS, TEST_MODEL_SOURCES, writeTestSeparationModel } from './testing/test-separation-model';
import { mixStatistics } from './mix-normalization';
import { OnnxModelError } from './model-session';
import { OnnxSeparator } from './onnx-separator';
import { sdr } from './testing/sdr';

const RATE = 44_100;

interface TestMixOptions {
  sampleRate?: number;
  /** White noise makes the mix broadband, so every kernel tap matters. */
  noise?: boolean;
  /** A DC offset, to see normalisation undone. */
  offset?: number;
}

/** Tones (and noise), different per channel. */
function testMix(seconds: number, { sampleRate = RATE, noise: withNoise = true, offset = 0 }: TestMixOptions = {}): StereoAudio {
  const length = Math.round(seconds * sampleRate);
  let state = 7;
  const noise = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  const channel = (tones: number[]) =>
    Float32Array.from({ length }, (_, i) => offset + (withNoise ? 0.1 * noise() : 0) + tones.reduce((sum, f) => sum + 0.2 * Math.sin((2 * Math.PI * f * i) / sampleRate), 0));
  return { sampleRate, left: channel([110, 660, 5000]), right: channel([220, 1500, 9000]) };
}

function maxAbsDifference(a: ArrayLike<number>, b: ArrayLike<number>, from = 0, to = a.length): number {
  let max = 0;
  for (let i = from; i < to; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** Rows of the model output (source * 2 + channel), as a StemSet holds them. */
function rowsOf(stems: StemSet): Float32Array[] {
  return TEST_MODEL_SOURCES.flatMap((stem) => [stems[stem].left, stems[stem].right]);
}

describe('OnnxSeparator', () => {
  let dir: string;
  let fixedModel: string; // 1 s windows, like a real HTDemucs export's fixed 7.8 s
  let dynamicModel: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stemdeck-onnx-'));
    fixedModel = await writeTestSeparationModel(join(dir, 'fixed.onnx'));
    dynamicModel = await writeTestSeparationModel(join(dir, 'dynamic.onnx'), { segmentSamples: null });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** The model run once over the whole mix: one window exactly as long as the signal. */
  async function separateWhole(mix: StereoAudio): Promise<StemSet> {
    const whole = new OnnxSeparator('hybrid', { modelPath: dynamicModel, segmentSeconds: mix.left.length / RATE });
    try {
      return await whole.separate(mix);
    } finally {
      await whole.release();
    }
  }

  it('separates a whole signal in one window as the model is defined (float32 rounding only)', async () => {
    const mix = testMix(2);
    const stems = await separateWhole(mix);
    const expected = expectedTestSeparation(mix.left, mix.right);
    rowsOf(stems).forEach((row, r) => expect(maxAbsDifference(row, expected[r])).toBeLessThan(5e-6));
    for (let t = 0; t < mix.left.length; t += 97) {
      expect(STEM_TYPES.reduce((sum, stem) => sum + stems[stem].left[t], 0)).toBeCloseTo(mix.left[t], 5);
    }
  });

  it('reproduces the whole-signal result window by window, joins included', async () => {
    const mix = testMix(3.3);
    const separator = new OnnxSeparator('quality', { modelPath: fixedModel });
    const windowed = rowsOf(await separator.separate(mix));
    await separator.release();
    const whole = rowsOf(await separateWhole(mix));
    // Within half a kernel of a window's edge the model saw zero padding instead of the signal, but
    // the triangular weight there is ~1/22050 of the neighbouring window's, so joins barely show.
    const reach = (TEST_MODEL_KERNEL_TAPS - 1) / 2;
    const stride = TEST_MODEL_DEFAULT_SEGMENT_SAMPLES * 0.75;
    const nearWindowEdge = (t: number) =>
      [t % stride, (t - TEST_MODEL_DEFAULT_SEGMENT_SAMPLES) % stride].some((d) => d >= 0 && (d < reach || d >= stride - reach));
    let joinError = 0;
    let elsewhereError = 0;
    windowed.forEach((row, r) => {
      row.forEach((value, t) => {
        const error = Math.abs(value - whole[r][t]);
        if (nearWindowEdge(t)) joinError = Math.max(joinError, error);
        else elsewhereError = Math.max(elsewhereError, error);
      });
    });
    const worstSdr = Math.min(...windowed.map((row, r) => sdr(whole[r], row)));
    // Measured: joins 4.0e-6, elsewhere 9.1e-7 (float32 rounding), worst stem 126 dB SDR.
    expect(joinError).toBeLessThan(5e-5);
    expect(elsewhereError).toBeLessThan(1e-6);
    expect(worstSdr).toBeGreaterThan(100);

    // Control: butt-joined windows (no overlap, no cross-fade) leave audible seams with this model.
    const butted = new OnnxSeparator('quality', { modelPath: fixedModel, overlap: 0 });
    const buttedRows = rowsOf(await butted.separate(mix));
    await butted.release();
    expect(Math.max(...buttedRows.map((row, r) => maxAbsDifference(row, whole[r])))).toBeGreaterThan(1e-2);
  });

  it('resamples a 48 kHz mix to the model rate and back: same rate and length, content intact', async () => {
    const mix = testMix(2.5, { sampleRate: 48_000, noise: false });
    const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
    const stems = await separator.separate(mix);
    await separator.release();
    for (const stem of STEM_TYPES) {
      expect(stems[stem].sampleRate).toBe(48_000);
      expect(stems[stem].left.length).toBe(mix.left.length);
      expect(stems[stem].right.length).toBe(mix.right.length);
    }
    const edge = 2000;
    const inner = [edge, mix.left.length - edge] as const;
    const scaled = (x: Float32Array, gain: number) => x.map((v) => gain * v);
    // The fixture's drums are 0.2 x left and 0.3 x right; its four stems sum to the mix.
    expect(sdr(scaled(mix.left, 0.2), stems.drums.left, ...inner)).toBeGreaterThan(40);
    expect(sdr(scaled(mix.right, 0.3), stems.drums.right, ...inner)).toBeGreaterThan(40);
    const sum = mix.left.map((_, t) => STEM_TYPES.reduce((total, stem) => total + stems[stem].left[t], 0));
    expect(sdr(mix.left, sum, ...inner)).toBeGreaterThan(40);
  });

  describe('as a stream', () => {
    /** Feeds `mix` in pieces of the given sizes (cycled) and joins what the stream gives back. */
    async function streamed(separator: OnnxSeparator, mix: StereoAudio, sizes: number[], statistics: ReturnType<typeof mixStatistics> | null = null) {
      const stream = await separator.openStream(mix.sampleRate, { statistics });
      const parts: StemSet[] = [];
      let maxHeld = 0;
      for (let at = 0, k = 0; at < mix.left.length; k++) {
        const to = Math.min(mix.left.length, at + sizes[k % sizes.length]);
        parts.push(await stream.push({ sampleRate: mix.sampleRate, left: mix.left.slice(at, to), right: mix.right.slice(at, to) }));
        maxHeld = Math.max(maxHeld, stream.heldSamples);
        at = to;
      }
      parts.push(await stream.end());
      const joined = {} as StemSet;
      for (const stem of STEM_TYPES) {
        const join = (side: 'left' | 'right') => {
          const whole = new Float32Array(parts.reduce((n, part) => n + part[stem][side].length, 0));
          let at = 0;
          for (const part of parts) (whole.set(part[stem][side], at), (at += part[stem][side].length));
          return whole;
        };
        joined[stem] = { sampleRate: mix.sampleRate, left: join('left'), right: join('right') };
      }
      return { stems: joined, maxHeld };
    }

    it.each([
      ['44.1 kHz in 1 s pieces', 44_100, [44_100]],
      ['44.1 kHz in odd pieces, down to 1 sample', 44_100, [1, 997, 30_000, 2, 44_100 * 2]],
      ['48 kHz (resampled both ways) in odd pieces', 48_000, [4_801, 13, 48_000]],
    ])('gives exactly the samples of the whole-song separation: %s', async (_label, sampleRate, sizes) => {
      const mix = testMix(3.3, { sampleRate });
      const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
      const whole = await separator.separate(mix);
      const { stems } = await streamed(separator, mix, sizes);
      await separator.release();
      for (const stem of STEM_TYPES) {
        expect(stems[stem].left).toEqual(whole[stem].left);
        expect(stems[stem].right).toEqual(whole[stem].right);
      }
    });

    it('normalises by the statistics it is given, as the whole-song path does', async () => {
      const mix = testMix(2.2, { offset: 0.1 });
      const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel, normalize: true });
      const whole = await separator.separate(mix);
      const { stems } = await streamed(separator, mix, [10_000], mixStatistics(mix.left, mix.right));
      await expect(separator.openStream(RATE)).rejects.toThrow(/statistics/);
      await separator.release();
      expect(stems.drums.left).toEqual(whole.drums.left);
    });

    it('holds a few windows whatever the length: 16 s in 1 s pieces keeps what 4 s keeps', async () => {
      const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
      const short = await streamed(separator, testMix(4, { noise: false }), [RATE]);
      const long = await streamed(separator, testMix(16, { noise: false }), [RATE]);
      await separator.release();
      expect(long.stems.vocals.left.length).toBe(16 * RATE);
      expect(long.maxHeld).toBe(short.maxHeld);
      expect(long.maxHeld).toBeLessThan(16 * RATE);
    }, 60_000);
  });

  it('reports progress once per window, rising to 1', async () => {
    const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
    const fractions: number[] = [];
    await separator.separate(testMix(3.3), ({ fraction }) => fractions.push(fraction));
    await separator.release();
    // 3.3 s in 1 s windows every 0.75 s: windows start at 0, 0.75, 1.5, 2.25 and 3 s.
    expect(fractions).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('returns empty stems for an empty mix, still reporting completion', async () => {
    const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
    const progress = jest.fn();
    const stems = await separator.separate({ sampleRate: 48_000, left: new Float32Array(0), right: new Float32Array(0) }, progress);
    await separator.release();
    expect(stems.vocals).toEqual({ sampleRate: 48_000, left: new Float32Array(0), right: new Float32Array(0) });
    expect(progress).toHaveBeenLastCalledWith({ fraction: 1 });
  });

  it('normalises the mix as Demucs does when asked, and undoes it on the stems', async () => {
    const mix = testMix(1.5, { offset: 0.1 });
    const untouched = mix.left.slice();
    const { mean } = mixStatistics(mix.left, mix.right);
    const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel, normalize: true });
    const stems = await separator.separate(mix);
    await separator.release();
    // drums = 0.2 x the normalised left, scaled back, plus the mean (Demucs adds it to every source).
    const expected = mix.left.map((x) => 0.2 * (x - mean) + mean);
    expect(maxAbsDifference(stems.drums.left, expected)).toBeLessThan(1e-5);
    expect(mix.left).toEqual(untouched);
  });

  it('maps model outputs to stems in the order the spec gives', async () => {
    const mix = testMix(1.2);
    const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel, sources: ['vocals', 'bass', 'other', 'drums'] });
    const stems = await separator.separate(mix);
    await separator.release();
    // The fixture's first output (0.2 x left) is now called vocals.
    expect(maxAbsDifference(stems.vocals.left, mix.left.map((x) => 0.2 * x))).toBeLessThan(1e-6);
  });

  it('opens the model once and reuses the session', async () => {
    const create = jest.spyOn(InferenceSession, 'create');
    const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
    await separator.load();
    await separator.separate(testMix(0.5));
    await separator.separate(testMix(0.5));
    await separator.release();
    expect(create).toHaveBeenCalledTimes(1);
    create.mockRestore();
  });

  describe('errors', () => {
    it('says clearly when the model file is missing or not ONNX', async () => {
      const missing = new OnnxSeparator('hybrid', { modelPath: join(dir, 'missing.onnx') });
      await expect(missing.separate(testMix(0.1))).rejects.toThrow(OnnxModelError);
      await expect(missing.load()).rejects.toThrow(/ONNX model file not found or not readable: .*missing\.onnx/);

      const corruptPath = join(dir, 'corrupt.onnx');
      await writeFile(corruptPath, Buffer.from('not a model'));
      await expect(new OnnxSeparator('quality', { modelPath: corruptPath }).load()).rejects.toThrow(/Could not load ONNX model .*corrupt\.onnx/);
    });

    it('refuses a window length the model cannot take', async () => {
      const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel, segmentSeconds: 7.8 });
      await expect(separator.load()).rejects.toThrow(/takes exactly 44100 samples \(1 s at 44100 Hz\); segmentSeconds 7.8 gives 343980/);
    });

    it('checks the spec when constructed', () => {
      expect(() => new OnnxSeparator('hybrid', { modelPath: fixedModel, sources: ['drums', 'bass', 'other', 'other'] })).toThrow(RangeError);
      expect(() => new OnnxSeparator('hybrid', { modelPath: fixedModel, overlap: 1 })).toThrow(RangeError);
      expect(() => new OnnxSeparator('hybrid', { modelPath: fixedModel, segmentSeconds: 0 })).toThrow(RangeError);
      expect(() => new OnnxSeparator('hybrid', { modelPath: fixedModel, sampleRate: 44_100.5 })).toThrow(RangeError);
    });

    it('rejects channels of different lengths', async () => {
      const separator = new OnnxSeparator('hybrid', { modelPath: fixedModel });
      await expect(separator.separate({ sampleRate: RATE, left: new Float32Array(10), right: new Float32Array(9) })).rejects.toThrow(RangeError);
    });
  });
});
