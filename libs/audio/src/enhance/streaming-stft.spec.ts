import { StreamingStft } from './streaming-stft';

function signal(length: number): { left: Float32Array; right: Float32Array } {
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    left[i] = 0.5 * Math.sin(i * 0.013) + 0.2 * Math.sin(i * 0.91) + (((i * 7919) % 101) / 101 - 0.5) * 0.1;
    right[i] = 0.4 * Math.cos(i * 0.021) - 0.2 * Math.sin(i * 1.7);
  }
  return { left, right };
}

/** Runs `input` through a unity-gain stream in chunks of the given sizes (cycled); returns the joined output. */
function passThrough(input: { left: Float32Array; right: Float32Array }, chunkSizes: number[], size = 512, hop = 128, blockFrames = 8) {
  const stream = new StreamingStft(size, hop, blockFrames, (_spec, _first, frames, mask) => mask.fill(1, 0, frames * (size / 2 + 1)), true);
  const left: number[] = [];
  const right: number[] = [];
  const take = (out: { left: Float32Array; right: Float32Array }) => {
    expect(out.right.length).toBe(out.left.length);
    left.push(...out.left);
    right.push(...out.right);
  };
  for (let at = 0, i = 0; at < input.left.length; i++) {
    const n = Math.min(chunkSizes[i % chunkSizes.length], input.left.length - at);
    take(stream.push(input.left.subarray(at, at + n), input.right.subarray(at, at + n)));
    at += n;
  }
  take(stream.end());
  return { left: Float32Array.from(left), right: Float32Array.from(right) };
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe('StreamingStft', () => {
  it.each([
    ['one chunk', [100_000]],
    ['odd chunks', [1, 333, 4097, 17]],
    ['chunks of one hop', [128]],
  ])('reconstructs the input sample for sample at unity gain, whatever the chunking (%s)', (_name, chunks) => {
    const input = signal(12_345);
    const output = passThrough(input, chunks);
    expect(output.left.length).toBe(input.left.length);
    expect(maxDifference(output.left, input.left)).toBeLessThan(1e-5);
    expect(maxDifference(output.right, input.right)).toBeLessThan(1e-5);
  });

  it('keeps an impulse where it was (no delay) and returns output while input still arrives', () => {
    const input = { left: new Float32Array(20_000), right: new Float32Array(20_000) };
    input.left[7_777] = 1;
    input.right[15] = -1;
    const stream = new StreamingStft(512, 128, 8, (_s, _f, frames, mask) => mask.fill(1, 0, frames * 257), true);
    const early = stream.push(input.left.subarray(0, 10_000), input.right.subarray(0, 10_000));
    // Everything but the last (size − hop) samples plus at most one block is complete once pushed.
    expect(early.left.length).toBeGreaterThan(10_000 - 384 - 8 * 128);
    const middle = stream.push(input.left.subarray(10_000), input.right.subarray(10_000));
    const late = stream.end();
    const left = Float32Array.from([...early.left, ...middle.left, ...late.left]);
    expect(left.length).toBe(20_000);
    let peak = 0;
    for (let i = 1; i < left.length; i++) if (Math.abs(left[i]) > Math.abs(left[peak])) peak = i;
    expect(peak).toBe(7_777);
    expect(left[7_777]).toBeCloseTo(1, 4);
  });

  it('hands each block its absolute first frame, covering every frame once, and holds no more than a block', () => {
    const seen: number[] = [];
    const stream = new StreamingStft(512, 128, 8, (_s, first, frames) => {
      for (let f = first; f < first + frames; f++) seen.push(f);
      expect(frames).toBeLessThanOrEqual(8);
    }, false);
    const input = signal(10_000);
    for (let at = 0; at < 10_000; at += 1000) expect(stream.push(input.left.subarray(at, at + 1000), input.right.subarray(at, at + 1000)).left.length).toBe(0);
    stream.end();
    // frameCount = ceil(10000 / 128) + 512/128 − 1.
    expect(seen).toEqual(Array.from({ length: 79 + 3 }, (_, f) => f));
  });

  it('applies a mask: a zero gain above a bin removes the high tone and keeps the low one', () => {
    const length = 16_384;
    const low = new Float32Array(length);
    const both = { left: new Float32Array(length), right: new Float32Array(length) };
    for (let i = 0; i < length; i++) {
      low[i] = Math.sin((2 * Math.PI * 8 * i) / 512);
      both.left[i] = low[i] + Math.sin((2 * Math.PI * 100 * i) / 512);
      both.right[i] = both.left[i];
    }
    const stream = new StreamingStft(512, 128, 8, (_s, _f, frames, mask) => {
      for (let row = 0; row < frames; row++) for (let k = 0; k < 257; k++) mask[row * 257 + k] = k < 50 ? 1 : 0;
    }, true);
    const out = stream.push(both.left, both.right);
    const rest = stream.end();
    const left = Float32Array.from([...out.left, ...rest.left]);
    // Away from the edges (where the frames are zero-padded) only the low tone remains.
    expect(maxDifference(left.subarray(1024, length - 1024), low.subarray(1024, length - 1024))).toBeLessThan(1e-3);
  });
});
