import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaToolError } from '../io/ffmpeg';
import { gainForLoudness } from './master';
import { measureCharacter, measureR128, scanSamples } from './measure';
import { makeNoise, makeTone } from './testing/material';
import { CLIP_LEVEL, runFfmpeg, SampleScanner } from './tool';

jest.setTimeout(30_000);

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stemdeck-measure-spec-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('measureR128 (ffmpeg ebur128, peak=true)', () => {
  it('reads a 997 Hz sine at −20 dBFS on both channels as −20 LUFS, −20 dBTP, no range', async () => {
    await makeTone(file('sine997.wav'), { hz: 997, seconds: 5, amplitude: 0.1 });
    const stats = await measureR128(file('sine997.wav'));
    expect(stats.integratedLufs).toBeCloseTo(-20, 1);
    expect(stats.truePeakDbtp).toBeCloseTo(-20, 1);
    expect(stats.loudnessRangeLu).toBeLessThan(0.1);
  });

  it('rejects what ffmpeg cannot read', async () => {
    await expect(measureR128(file('missing.wav'))).rejects.toThrow(/No such file or directory/);
  });
});

describe('measureCharacter', () => {
  it('reads a 1 kHz sine: centroid 1 kHz, crest 3 dB, peak −6 dBFS', async () => {
    await makeTone(file('sine1k.wav'), { hz: 1000, seconds: 3, amplitude: 0.5 });
    const stats = await measureCharacter(file('sine1k.wav'));
    expect(Math.abs(stats.spectralCentroidHz - 1000)).toBeLessThan(30);
    expect(stats.crestFactorDb).toBeCloseTo(3.01, 1);
    expect(stats.samplePeakDbfs).toBeCloseTo(-6.02, 1);
    expect(stats.clippedSamples).toBe(0);
  });

  it('puts white noise above pink noise above low-passed noise in centroid', async () => {
    await Promise.all([
      makeNoise(file('white.wav'), { color: 'white', seconds: 3, amplitude: 0.3, seed: 1 }),
      makeNoise(file('pink.wav'), { color: 'pink', seconds: 3, amplitude: 0.3, seed: 1 }),
      makeNoise(file('dark.wav'), { color: 'white', seconds: 3, amplitude: 0.3, seed: 1, lowpassHz: 1000 }),
    ]);
    const [white, pink, dark] = await Promise.all(['white.wav', 'pink.wav', 'dark.wav'].map((name) => measureCharacter(file(name))));
    expect(white.spectralCentroidHz).toBeGreaterThan(8000);
    expect(pink.spectralCentroidHz).toBeLessThan(white.spectralCentroidHz - 2000);
    expect(dark.spectralCentroidHz).toBeLessThan(pink.spectralCentroidHz);
  });

  it('counts the samples at or beyond full scale, like a scan of the decoded file', async () => {
    await makeTone(file('over.wav'), { hz: 1000, seconds: 1, amplitude: 1.2 });
    const [stats, scan] = await Promise.all([measureCharacter(file('over.wav')), scanSamples(file('over.wav'))]);
    // |1.2·sin| ≥ 32767/32768 over 2·(π − 2·asin(0.8333…))/(2π) of each cycle: about 37 % of the samples.
    expect(stats.clippedSamples).toBe(scan.clippedSamples);
    expect(scan.clippedSamples / (2 * 44100)).toBeCloseTo(1 - (2 / Math.PI) * Math.asin(CLIP_LEVEL / 1.2), 2);
    expect(scan.samplePeakDbfs).toBeCloseTo(20 * Math.log10(1.2), 2);
  });
});

describe('SampleScanner', () => {
  it('reads floats split anywhere across chunks', () => {
    const values = Float32Array.of(0.5, -1, 0.25, 1.5, -0.999, 0.99999);
    const bytes = Buffer.from(values.buffer);
    const scanner = new SampleScanner();
    for (const [from, to] of [[0, 3], [3, 9], [9, 10], [10, 24]]) scanner.push(bytes.subarray(from, to));
    expect(scanner.samples).toBe(6);
    expect(scanner.peak).toBe(1.5);
    expect(scanner.clipped).toBe(3); // −1, 1.5 and 0.99999 (≥ 32767/32768); not −0.999
  });
});

describe('gainForLoudness', () => {
  const curve = [
    { gain: 0, lufs: -20 },
    { gain: 7, lufs: -13.2 },
    { gain: 9, lufs: -11.6 },
  ];

  it('interpolates between the measured points', () => {
    expect(gainForLoudness(curve, -12.4)).toBeCloseTo(8, 6);
    expect(gainForLoudness(curve, -16.6)).toBeCloseTo(3.5, 6);
  });

  it('extends the last slope past the curve, and follows the gain 1:1 below it', () => {
    expect(gainForLoudness(curve, -11.2)).toBeCloseTo(9.5, 6);
    expect(gainForLoudness(curve, -22)).toBeCloseTo(-2, 6);
  });
});

describe('runFfmpeg', () => {
  it('rejects with the telling line of ffmpeg\'s log', async () => {
    const attempt = runFfmpeg({ args: ['-f', 'lavfi', '-i', 'anullsrc', '-af', 'nosuchfilter', '-f', 'null', '-'] });
    await expect(attempt).rejects.toBeInstanceOf(MediaToolError);
    await expect(attempt).rejects.toThrow(/No such filter: 'nosuchfilter'/);
  });
});
