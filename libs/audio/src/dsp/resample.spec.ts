import { resample, Resampler } from './resample';
import { sdr } from '../separation/onnx/testing/sdr';

function tone(rate: number, seconds: number, frequencies: number[]): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) {
    for (const f of frequencies) out[i] += (0.9 / frequencies.length) * Math.sin((2 * Math.PI * f * i) / rate + f);
  }
  return out;
}

describe('Resampler', () => {
  const EDGE = 1000; // samples ignored at each end, where the filter meets the zero padding

  it.each([
    ['a 1 kHz tone', [1000]],
    ['a chord up to 15 kHz', [110, 440, 3000, 9000, 15000]],
  ])('keeps %s through 48 kHz -> 44.1 kHz -> 48 kHz (SDR > 90 dB; measured ~100 dB)', (_label, frequencies) => {
    const original = tone(48_000, 1, frequencies);
    const down = new Resampler(48_000, 44_100).process(original);
    const back = new Resampler(44_100, 48_000).process(down);
    expect(down.length).toBe(44_100);
    expect(back.length).toBe(original.length);
    expect(sdr(original, back, EDGE, original.length - EDGE)).toBeGreaterThan(90);
  });

  it('puts a tone where it belongs at the new rate (no delay, right pitch)', () => {
    const at48k = tone(48_000, 0.5, [1000]);
    const expected = tone(44_100, 0.5, [1000]);
    const converted = resample(at48k, 48_000, 44_100);
    expect(sdr(expected, converted, EDGE, expected.length - EDGE)).toBeGreaterThan(60);
  });

  it('removes content above the new Nyquist frequency instead of aliasing it', () => {
    const above = tone(48_000, 0.5, [23_000]); // above 22.05 kHz: must not fold down to 21.1 kHz
    const converted = resample(above, 48_000, 44_100);
    let peak = 0;
    for (let i = EDGE; i < converted.length - EDGE; i++) peak = Math.max(peak, Math.abs(converted[i]));
    expect(peak).toBeLessThan(1e-3);
  });

  it('keeps a constant exactly constant and copies equal rates', () => {
    const ones = new Float32Array(4_000).fill(0.5);
    const up = resample(ones, 22_050, 48_000);
    for (let i = EDGE; i < up.length - EDGE; i++) expect(up[i]).toBeCloseTo(0.5, 6);
    const same = resample(ones, 44_100, 44_100);
    expect(same).toEqual(ones);
    expect(same).not.toBe(ones);
  });

  it.each([
    [48_000, 44_100],
    [44_100, 48_000],
    [22_050, 44_100],
  ])('streams %i Hz -> %i Hz in any pieces with exactly the samples of one whole conversion', (from, to) => {
    const input = tone(from, 0.7, [440, 7000]);
    const whole = new Resampler(from, to).process(input);
    for (const sizes of [[1], [3, 1000, 7], [input.length]]) {
      const stream = new Resampler(from, to).stream();
      const parts: number[] = [];
      for (let at = 0, k = 0; at < input.length; k++) {
        const next = Math.min(input.length, at + sizes[k % sizes.length]);
        parts.push(...stream.push(input.subarray(at, next)));
        at = next;
      }
      parts.push(...stream.end());
      expect(Float32Array.from(parts)).toEqual(whole);
    }
  });

  it('rejects non-integer rates', () => {
    expect(() => new Resampler(44_100.5, 48_000)).toThrow(RangeError);
  });
});
