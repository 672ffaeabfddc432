import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FfmpegStemAudio } from './stem-audio';

/** Object keys are local files here: ffmpeg reads a path as it reads a presigned url. */
const localFiles = { presignedReadUrl: async (key: string) => key };

describe('FfmpegStemAudio (real ffmpeg on local files)', () => {
  let dir: string;
  let stem: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stem-audio-'));
    stem = join(dir, 'vocals.flac');
    // 2 s of a 440 Hz sine (ffmpeg's sine source: amplitude 1/8) in both channels, then 1 s of silence, FLAC at 44.1 kHz.
    execFileSync('ffmpeg', [
      '-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono:d=1',
      '-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1,pan=stereo|c0=c0|c1=c0', '-c:a', 'flac', '-sample_fmt', 's32', join(dir, 'vocals.flac'),
    ]);
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the stem per 1/60 s: the sine\'s RMS (amplitude / √2), then silence', async () => {
    const progress: number[] = [];
    const power = await new FfmpegStemAudio(localFiles).framePower(stem, 60, { expectedSeconds: 3, onProgress: (fraction) => progress.push(fraction) });
    expect(power.length).toBe(180);
    const rms = Array.from(power, Math.sqrt);
    // A 1/60 s frame holds 7.33 cycles of 440 Hz, so each frame reads the sine's RMS within a fraction of a percent.
    for (const value of rms.slice(1, 119)) expect(value).toBeCloseTo(0.125 / Math.SQRT2, 2);
    for (const value of rms.slice(125)) expect(value).toBeLessThan(1e-4);
    expect(progress.at(-1)).toBe(1);
  }, 30_000);

  it('writes a 16-bit PCM WAV at the stem\'s rate with its title and the whole length', async () => {
    const out = join(dir, 'Song - vocals.wav');
    await new FfmpegStemAudio(localFiles).writeWav(stem, out, 'Song - vocals');
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', out]).toString());
    expect(probe.format.format_name).toBe('wav');
    expect(probe.format.tags?.title).toBe('Song - vocals');
    expect(probe.streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: '44100', channels: 2, bits_per_sample: 16 });
    expect(Number(probe.streams[0].duration)).toBeCloseTo(3, 2);
  }, 30_000);

  it('fails with ffmpeg\'s error for a missing object', async () => {
    await expect(new FfmpegStemAudio(localFiles).writeWav(join(dir, 'missing.flac'), join(dir, 'x.wav'), 'x')).rejects.toThrow(/ffmpeg exited/);
    await expect(new FfmpegStemAudio(localFiles).framePower(join(dir, 'missing.flac'), 60)).rejects.toThrow();
  }, 30_000);
});
