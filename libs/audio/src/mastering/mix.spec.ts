import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio, probeMedia } from '../io/ffmpeg';
import { mixAudioFiles } from './mix';
import { makeNoise, makeTone } from './testing/material';

jest.setTimeout(30_000);

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stemdeck-mix-spec-'));
  await Promise.all([
    makeTone(file('a220.wav'), { hz: 220, seconds: 3, amplitude: 0.3 }),
    makeNoise(file('noise.wav'), { color: 'pink', seconds: 3, amplitude: 0.2, seed: 3 }),
    makeTone(file('mono440.wav'), { hz: 440, seconds: 3, amplitude: 0.25, channels: 1 }),
    makeTone(file('b1000.wav'), { hz: 1000, seconds: 3, amplitude: 0.4 }),
    makeTone(file('short.wav'), { hz: 330, seconds: 2, amplitude: 0.2 }),
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const db = (gain: number) => 10 ** (gain / 20);

function maxDifference(actual: Float32Array, expected: Float64Array): number {
  expect(actual.length).toBe(expected.length);
  let max = 0;
  for (let i = 0; i < actual.length; i++) max = Math.max(max, Math.abs(actual[i] - expected[i]));
  return max;
}

describe('mixAudioFiles', () => {
  it('sums the unmuted stems with their gains (mono stems on both channels at full level), to float WAV', async () => {
    const result = await mixAudioFiles({
      output: file('mix.wav'),
      stems: [
        { input: file('a220.wav'), gainDb: -6 },
        { input: file('noise.wav'), gainDb: 3 },
        { input: file('mono440.wav') },
        { input: file('b1000.wav'), gainDb: 6, mute: true },
      ],
    });
    expect(result).toMatchObject({ sampleRate: 44100, channels: 2, mixed: 3 });
    const [mix, a, noise, mono] = await Promise.all(['mix.wav', 'a220.wav', 'noise.wav', 'mono440.wav'].map((name) => decodeAudio(file(name))));
    for (const side of ['left', 'right'] as const) {
      const expected = new Float64Array(a[side].length);
      for (let i = 0; i < expected.length; i++) expected[i] = a[side][i] * db(-6) + noise[side][i] * db(3) + mono[side][i];
      expect(maxDifference(mix[side], expected)).toBeLessThan(1e-5);
    }
    expect((await probeMedia(file('mix.wav'))).audio).toEqual({ codec: 'pcm_f32le', sampleRate: 44100, channels: 2 });
  });

  it('lasts as long as the longest stem, with no level change when a shorter one ends', async () => {
    await mixAudioFiles({ output: file('mix-long.wav'), stems: [{ input: file('short.wav') }, { input: file('a220.wav') }] });
    const [mix, short, a] = await Promise.all(['mix-long.wav', 'short.wav', 'a220.wav'].map((name) => decodeAudio(file(name))));
    const expected = new Float64Array(a.left.length);
    for (let i = 0; i < expected.length; i++) expected[i] = a.left[i] + (i < short.left.length ? short.left[i] : 0);
    expect(maxDifference(mix.left, expected)).toBeLessThan(1e-5);
  });

  it('writes 24-bit FLAC for a .flac path (the sum within one 24-bit step)', async () => {
    await mixAudioFiles({ output: file('mix.flac'), stems: [{ input: file('a220.wav'), gainDb: -3 }, { input: file('b1000.wav'), gainDb: -3 }] });
    const [mix, a, b] = await Promise.all(['mix.flac', 'a220.wav', 'b1000.wav'].map((name) => decodeAudio(file(name))));
    const expected = new Float64Array(a.left.length);
    for (let i = 0; i < expected.length; i++) expected[i] = (a.left[i] + b.left[i]) * db(-3);
    expect(maxDifference(mix.left, expected)).toBeLessThan(2 / 8388608);
  });

  it('rejects when every stem is muted, and names a stem it cannot read', async () => {
    await expect(mixAudioFiles({ output: file('x.wav'), stems: [{ input: file('a220.wav'), mute: true }] })).rejects.toThrow(/every stem is muted/);
    await expect(mixAudioFiles({ output: file('x.wav'), stems: [{ input: file('a220.wav') }, { input: file('missing.wav') }] })).rejects.toThrow(
      /^Cannot mix .*missing\.wav: ffprobe cannot read it/,
    );
  });

  it('reports progress from ffmpeg, ending at 1', async () => {
    const progress: number[] = [];
    await mixAudioFiles({ output: file('mix-progress.wav'), stems: [{ input: file('noise.wav') }], onProgress: (f) => progress.push(f) });
    expect(progress[progress.length - 1]).toBe(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
  });
});
