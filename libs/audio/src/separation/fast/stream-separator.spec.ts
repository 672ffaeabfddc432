import { STEM_TYPES, type StemSet, type StereoAudio } from '../../types';
import { chunksOf } from '../../io/pcm-stream';
import { createFastSeparator } from './fast-separator';
import { separateFastStream } from './stream-separator';

// Typed-array code runs several times slower under jest's module sandbox than in plain node.
jest.setTimeout(60_000);

/** Deterministic noise with a slow tone on top: enough structure for every mask to do something. */
function signal(sampleRate: number, frames: number): StereoAudio {
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  let seed = 12345;
  for (let i = 0; i < frames; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const noise = (seed / 2 ** 32 - 0.5) * 0.2 * (i % 11025 < 800 ? 1 : 0.1);
    const tone = 0.3 * Math.sin((2 * Math.PI * 220 * i) / sampleRate);
    left[i] = tone + noise;
    right[i] = 0.8 * tone - noise;
  }
  return { sampleRate, left, right };
}

async function streamed(mixture: StereoAudio, chunkFrames: number): Promise<{ stems: StemSet; writes: number; progress: number[] }> {
  const parts: Record<string, { left: Float32Array[]; right: Float32Array[] }> = {};
  for (const type of STEM_TYPES) parts[type] = { left: [], right: [] };
  let writes = 0;
  const progress: number[] = [];
  await separateFastStream(
    chunksOf(mixture, chunkFrames),
    async (stems) => {
      writes++;
      for (const type of STEM_TYPES) {
        parts[type].left.push(stems[type].left);
        parts[type].right.push(stems[type].right);
      }
    },
    { threads: 0, onProgress: ({ fraction }) => progress.push(fraction) },
  );
  const join = (arrays: Float32Array[]) => {
    const out = new Float32Array(arrays.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of arrays) (out.set(a, at), (at += a.length));
    return out;
  };
  const stems = {} as StemSet;
  for (const type of STEM_TYPES) stems[type] = { sampleRate: mixture.sampleRate, left: join(parts[type].left), right: join(parts[type].right) };
  return { stems, writes, progress };
}

describe('separateFastStream', () => {
  it('writes exactly the samples the whole-array separation computes, whatever the chunk size', async () => {
    // 29.3 s: two whole segments and a clipped last one, with a length that is no multiple of the hop.
    const mixture = signal(44100, Math.round(29.3 * 44100) + 17);
    const whole = await createFastSeparator({ threads: 0 }).separate(mixture);
    for (const chunkFrames of [44100, 4093]) {
      const { stems, writes, progress } = await streamed(mixture, chunkFrames);
      expect(writes).toBe(3);
      expect(progress.at(-1)).toBe(1);
      for (const type of STEM_TYPES) {
        expect(stems[type].left.length).toBe(mixture.left.length);
        expect(Buffer.from(stems[type].left.buffer).equals(Buffer.from(whole[type].left.buffer))).toBe(true);
        expect(Buffer.from(stems[type].right.buffer).equals(Buffer.from(whole[type].right.buffer))).toBe(true);
      }
    }
  });

  it('handles a stream shorter than one frame and an empty one', async () => {
    const tiny = signal(44100, 1);
    const whole = await createFastSeparator({ threads: 0 }).separate(tiny);
    const { stems } = await streamed(tiny, 44100);
    for (const type of STEM_TYPES) expect(Array.from(stems[type].left)).toEqual(Array.from(whole[type].left));
    const empty = await separateFastStream(chunksOf(signal(44100, 0)), async () => undefined, { threads: 0 });
    expect(empty.frames).toBe(0);
  });
});
