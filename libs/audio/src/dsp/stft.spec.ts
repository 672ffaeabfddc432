import { StereoStft, type StereoSamples, type StereoSpectrogram } from './stft';

function testSignal(length: number): StereoSamples {
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    left[i] = 0.5 * Math.sin(i * 0.013) + 0.3 * Math.sin(i * 0.71 + 0.2) + (((i * 7919) % 101) / 101 - 0.5) * 0.2;
    right[i] = 0.4 * Math.cos(i * 0.021) - 0.2 * Math.sin(i * 1.3);
  }
  return { left, right };
}

function silence(length: number): StereoSamples {
  return { left: new Float32Array(length), right: new Float32Array(length) };
}

/** Masks that pass every bin of `spec` unchanged. */
function unity(spec: StereoSpectrogram): { left: Float32Array; right: Float32Array } {
  const ones = new Float32Array(spec.frames * spec.bins).fill(1);
  return { left: ones, right: ones };
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

function peakBin(re: Float32Array, im: Float32Array, row: number, bins: number): number {
  let best = 0;
  for (let k = 1; k < bins; k++) {
    const i = row * bins + k;
    const j = row * bins + best;
    if (re[i] ** 2 + im[i] ** 2 > re[j] ** 2 + im[j] ** 2) best = k;
  }
  return best;
}

describe('StereoStft', () => {
  it.each([
    [2048, 512],
    [2048, 1024],
    [256, 64],
  ])('reconstructs both channels exactly without masks (size %i, hop %i)', (size, hop) => {
    const stft = new StereoStft(size, hop);
    const input = testSignal(5 * size + 123);
    const spec = stft.createSpectrogram(0, stft.frameCount(input.left.length));
    stft.analyze(input, spec);
    const out = silence(input.left.length);
    stft.synthesize(spec, 0, spec.frames, [unity(spec)], [out], 0, input.left.length);
    expect(maxDifference(out.left, input.left)).toBeLessThan(1e-5);
    expect(maxDifference(out.right, input.right)).toBeLessThan(1e-5);
  });

  it('keeps the channels apart in the packed transform', () => {
    const size = 512;
    const stft = new StereoStft(size, 128);
    const length = 4 * size;
    const input = silence(length);
    for (let i = 0; i < length; i++) {
      input.left[i] = Math.sin((2 * Math.PI * 20 * i) / size);
      input.right[i] = Math.cos((2 * Math.PI * 75 * i) / size);
    }
    const spec = stft.createSpectrogram(0, stft.frameCount(length));
    stft.analyze(input, spec);
    const row = 5;
    expect(peakBin(spec.leftRe, spec.leftIm, row, spec.bins)).toBe(20);
    expect(peakBin(spec.rightRe, spec.rightIm, row, spec.bins)).toBe(75);
    const power = (bin: number) => spec.leftRe[row * spec.bins + bin] ** 2 + spec.leftIm[row * spec.bins + bin] ** 2;
    expect(power(75)).toBeLessThan(1e-6 * power(20)); // window sidelobes only
  });

  it('applies each channel its own mask', () => {
    const stft = new StereoStft(256, 64);
    const input = testSignal(2000);
    const spec = stft.createSpectrogram(0, stft.frameCount(input.left.length));
    stft.analyze(input, spec);
    const zeros = new Float32Array(spec.frames * spec.bins);
    const out = silence(2000);
    stft.synthesize(spec, 0, spec.frames, [{ left: unity(spec).left, right: zeros }], [out], 0, 2000);
    expect(maxDifference(out.left, input.left)).toBeLessThan(1e-5);
    expect(maxDifference(out.right, silence(2000).right)).toBeLessThan(1e-9);
  });

  it('builds the same output from spectrogram pieces that own disjoint sample ranges', () => {
    const stft = new StereoStft(256, 64);
    const length = 3000;
    const input = testSignal(length);
    const overlap = stft.size / stft.hop;
    const whole = silence(length);
    const all = stft.createSpectrogram(0, stft.frameCount(length));
    stft.analyze(input, all);
    stft.synthesize(all, 0, all.frames, [unity(all)], [whole], 0, length);

    // Frames [0, 20) own samples [0, 20·hop); they need frames up to 20 + overlap − 1 to finish them.
    const pieces = silence(length);
    const split = 20;
    const first = stft.createSpectrogram(0, split + overlap - 1);
    stft.analyze(input, first);
    stft.synthesize(first, 0, first.frames, [unity(first)], [pieces], 0, split * stft.hop);
    const second = stft.createSpectrogram(split, all.frames - split);
    stft.analyze(input, second);
    stft.synthesize(second, split, all.frames, [unity(second)], [pieces], split * stft.hop, length);
    expect(maxDifference(pieces.left, whole.left)).toBeLessThan(1e-6);
    expect(maxDifference(pieces.right, whole.right)).toBeLessThan(1e-6);
  });

  it('places frames so that every sample lies under size/hop frames', () => {
    const stft = new StereoStft(1024, 256);
    expect(stft.frameStart(0)).toBe(-768);
    expect(stft.frameCount(1000)).toBe(4 + 3);
    expect(stft.frameStart(stft.frameCount(1000) - 1) + 1024).toBeGreaterThanOrEqual(1000);
    expect(() => new StereoStft(1024, 1024)).toThrow();
  });
});
