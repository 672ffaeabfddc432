import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaToolError, probeMedia } from '../io/ffmpeg';
import { masterAudioFile, type MasteringResult } from './master';
import { measureCharacter, measureR128, scanSamples, type CharacterStats, type LoudnessStats } from './measure';
import {
  MASTERING_INTENSITIES,
  MASTERING_LOUDNESS_TOLERANCE_LU,
  MASTERING_STYLES,
  MASTERING_TARGET_LUFS,
  MASTERING_TRUE_PEAK_MAX_DBTP,
  type MasteringIntensity,
  type MasteringStyle,
} from './styles';
import { makeTestSong } from './testing/material';

jest.setTimeout(60_000);

let dir: string;
let song: string;
let songR128: LoudnessStats;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stemdeck-mastering-spec-'));
  song = join(dir, 'song.wav');
  await makeTestSong(song, { seconds: 10 });
  songR128 = await measureR128(song);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Mastered {
  result: MasteringResult;
  progress: number[];
  file: { lufs: number; lra: number; truePeak: number; clipped: number; sampleRate: number; channels: number; codec: string };
  character: CharacterStats;
}

const mastered = new Map<string, Mastered>();
const key = (style: MasteringStyle, intensity: MasteringIntensity) => `${style}-${intensity}`;

describe('masterAudioFile: every style at every intensity (10 s synthetic song, −24 LUFS in)', () => {
  const cases = MASTERING_INTENSITIES.flatMap((intensity) => MASTERING_STYLES.map((style) => [style, intensity] as const));

  it.each(cases)('%s at intensity %i lands its target within ±0.5 LU, at or below −1 dBTP, with no clipped sample', async (style, intensity) => {
    const output = join(dir, `${key(style, intensity)}.flac`);
    const progress: number[] = [];
    const result = await masterAudioFile({ input: song, output, style, intensity, onProgress: (f) => progress.push(f) });
    // The engine's own figures and, independently, the written file's.
    const [r128, scan, probe, character] = await Promise.all([measureR128(output), scanSamples(output), probeMedia(output), measureCharacter(output)]);
    mastered.set(key(style, intensity), {
      result,
      progress,
      character,
      file: {
        lufs: r128.integratedLufs,
        lra: r128.loudnessRangeLu,
        truePeak: r128.truePeakDbtp,
        clipped: scan.clippedSamples,
        sampleRate: probe.audio!.sampleRate,
        channels: probe.audio!.channels,
        codec: probe.audio!.codec,
      },
    });
    const target = MASTERING_TARGET_LUFS[intensity];

    expect(result.targetLufs).toBe(target);
    expect(result.meetsTargets).toBe(true);
    expect(Math.abs(result.after.integratedLufs - target)).toBeLessThanOrEqual(MASTERING_LOUDNESS_TOLERANCE_LU);
    expect(result.after.truePeakDbtp).toBeLessThanOrEqual(MASTERING_TRUE_PEAK_MAX_DBTP);
    expect(result.after.clippedSamples).toBe(0);
    expect(result.before.integratedLufs).toBeCloseTo(songR128.integratedLufs, 2);
    expect(result.before.truePeakDbtp).toBeCloseTo(songR128.truePeakDbtp, 2);

    expect(Math.abs(r128.integratedLufs - target)).toBeLessThanOrEqual(MASTERING_LOUDNESS_TOLERANCE_LU);
    expect(r128.truePeakDbtp).toBeLessThanOrEqual(MASTERING_TRUE_PEAK_MAX_DBTP);
    expect(Math.abs(r128.integratedLufs - result.after.integratedLufs)).toBeLessThan(0.02);
    expect(scan.clippedSamples).toBe(0);
    expect(probe.audio).toMatchObject({ codec: 'flac', sampleRate: 44100, channels: 2 });
    expect(probe.durationSeconds).toBeCloseTo(10, 2);
  });

  it('reports progress that only rises, from ffmpeg, and ends at 1', () => {
    expect(mastered.size).toBe(15);
    for (const { progress } of mastered.values()) {
      expect(progress.length).toBeGreaterThan(3);
      for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
      expect(progress[0]).toBeGreaterThan(0);
      expect(progress[progress.length - 1]).toBe(1);
    }
  });

  it.each(MASTERING_INTENSITIES)('at intensity %i the styles differ: centroid warm < balanced < open, crest punchy > smooth', (intensity) => {
    const get = (style: MasteringStyle) => mastered.get(key(style, intensity))!.character;
    expect(get('warm').spectralCentroidHz).toBeLessThan(get('balanced').spectralCentroidHz - 100);
    expect(get('balanced').spectralCentroidHz).toBeLessThan(get('open').spectralCentroidHz - 100);
    expect(get('punchy').crestFactorDb).toBeGreaterThan(get('smooth').crestFactorDb + 0.3);
    // "At equal loudness": both within the tolerance of the same target.
    expect(Math.abs(mastered.get(key('punchy', intensity))!.file.lufs - mastered.get(key('smooth', intensity))!.file.lufs)).toBeLessThan(1);
  });
});

describe('masterAudioFile: loudness only (a sum of parts already mastered)', () => {
  it('skips the style chain: lands the target under the ceiling, keeps the input\'s tone where the style would change it', async () => {
    const input = join(dir, 'parts-sum.wav');
    await makeTestSong(input, { seconds: 6 });
    const [styled, plain] = await Promise.all([
      masterAudioFile({ input, output: join(dir, 'sum-warm.flac'), style: 'warm', intensity: 2 }),
      masterAudioFile({ input, output: join(dir, 'sum-loudness.flac'), style: 'warm', intensity: 2, loudnessOnly: true }),
    ]);
    expect(plain.meetsTargets).toBe(true);
    expect(Math.abs(plain.after.integratedLufs - -14)).toBeLessThanOrEqual(MASTERING_LOUDNESS_TOLERANCE_LU);
    expect(plain.after.truePeakDbtp).toBeLessThanOrEqual(MASTERING_TRUE_PEAK_MAX_DBTP);
    // One process fewer: no chain pass.
    expect(plain.ffmpegRuns).toBeLessThan(styled.ffmpegRuns);
    const [source, warm, loudness] = await Promise.all([input, styled.output, plain.output].map((file) => measureCharacter(file)));
    const styleShift = Math.abs(warm.spectralCentroidHz - source.spectralCentroidHz);
    expect(styleShift).toBeGreaterThan(100);
    expect(Math.abs(loudness.spectralCentroidHz - source.spectralCentroidHz)).toBeLessThan(styleShift / 3);
  });
});

describe('masterAudioFile: formats and inputs', () => {
  it('writes 24-bit WAV for a .wav path, keeping a mono 48 kHz input mono at 48 kHz', async () => {
    const mono = join(dir, 'mono48.wav');
    await makeTestSong(mono, { seconds: 6, sampleRate: 48000, channels: 1 });
    const output = join(dir, 'mono48-master.wav');
    const result = await masterAudioFile({ input: mono, output, style: 'open', intensity: 2 });
    const probe = await probeMedia(output);
    expect(probe.audio).toEqual({ codec: 'pcm_s24le', sampleRate: 48000, channels: 1 });
    expect(result).toMatchObject({ format: 'wav', sampleRate: 48000, channels: 1, meetsTargets: true });
    const r128 = await measureR128(output);
    expect(Math.abs(r128.integratedLufs + 14)).toBeLessThanOrEqual(MASTERING_LOUDNESS_TOLERANCE_LU);
    expect(r128.truePeakDbtp).toBeLessThanOrEqual(MASTERING_TRUE_PEAK_MAX_DBTP);
  });

  it('brings a loud input down as well (−14 LUFS in, mastered Light)', async () => {
    const loud = join(dir, 'loud.wav');
    await makeTestSong(loud, { seconds: 6, gainDb: 2 });
    const result = await masterAudioFile({ input: loud, output: join(dir, 'loud.flac'), style: 'balanced', intensity: 1 });
    expect(result.before.integratedLufs).toBeGreaterThan(-16);
    expect(result.meetsTargets).toBe(true);
  });

  it('reads its input from an http URL', async () => {
    const bytes = await readFile(song);
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': bytes.length });
      response.end(bytes);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await masterAudioFile({ input: `http://127.0.0.1:${port}/song.wav`, output: join(dir, 'from-url.flac'), style: 'warm', intensity: 2 });
      expect(result.meetsTargets).toBe(true);
      expect(result.before.integratedLufs).toBeCloseTo(songR128.integratedLufs, 2);
    } finally {
      server.close();
    }
  });

  it('rejects a missing file with a clear error', async () => {
    const missing = join(dir, 'nope.wav');
    await expect(masterAudioFile({ input: missing, output: join(dir, 'x.flac'), style: 'warm', intensity: 1 })).rejects.toThrow(
      new RegExp(`^Cannot master ${missing}: ffprobe cannot read it \\(.*No such file or directory`),
    );
  });

  it('rejects a file that is not audio with a clear error', async () => {
    const text = join(dir, 'notes.wav');
    await writeFile(text, 'these are not samples\n'.repeat(100));
    const attempt = masterAudioFile({ input: text, output: join(dir, 'x.flac'), style: 'warm', intensity: 1 });
    await expect(attempt).rejects.toBeInstanceOf(MediaToolError);
    await expect(attempt).rejects.toThrow(/^Cannot master .*notes\.wav: ffprobe cannot read it/);
  });

  it('rejects silence, and an unknown style or intensity', async () => {
    const silent = join(dir, 'silent.wav');
    await makeTestSong(silent, { seconds: 2, gainDb: -200 });
    await expect(masterAudioFile({ input: silent, output: join(dir, 'x.flac'), style: 'warm', intensity: 1 })).rejects.toThrow(/it is silent/);
    await expect(masterAudioFile({ input: song, output: join(dir, 'x.flac'), style: 'loud' as MasteringStyle, intensity: 1 })).rejects.toThrow(
      /Unknown mastering style "loud"/,
    );
    await expect(masterAudioFile({ input: song, output: join(dir, 'x.flac'), style: 'warm', intensity: 4 as MasteringIntensity })).rejects.toThrow(
      /intensity must be 1, 2 or 3/,
    );
  });

  it('stops its ffmpeg processes and rejects when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const attempt = masterAudioFile({
      input: song,
      output: join(dir, 'aborted.flac'),
      style: 'punchy',
      intensity: 3,
      signal: controller.signal,
      onProgress: (f) => f > 0.2 && controller.abort(reason),
    });
    await expect(attempt).rejects.toBe(reason);
  });
});
