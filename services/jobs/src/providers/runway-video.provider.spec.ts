import { runFfmpeg } from '@stemdeck/audio';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoRenderRequest } from '../video/video-renderer.port';
import { RunwayVideoProvider, soundtrackArgs } from './runway-video.provider';

/** The streams and length of a media file, as ffprobe reads them. */
function probe(path: string) {
  const { streams, format } = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path]).toString()) as {
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate?: string }>;
    format: { duration: string; format_name: string };
  };
  return { streams, duration: Number(format.duration), format: format.format_name };
}

/** The mean volume (dB) of a file's audio over [start, start+length). */
function meanVolume(path: string, start: number, length: number): number {
  // volumedetect reports on stderr.
  const log = spawnSync('ffmpeg', ['-hide_banner', '-ss', String(start), '-t', String(length), '-i', path, '-vn', '-af', 'volumedetect', '-f', 'null', '-']).stderr.toString();
  return Number(/mean_volume: (-?[\d.]+) dB/.exec(log)?.[1] ?? Number.NaN);
}

describe('RunwayVideoProvider: Runway\'s clip fitted to the song (real ffmpeg)', () => {
  let dir: string;
  let clip: Buffer;
  const stems: VideoRenderRequest['stems'] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runway-provider-spec-'));
    // A 2 s silent 1280x720 clip, as Runway answers; two 12 s stems: a tone, and silence then a louder tone from 6 s.
    await runFfmpeg({ args: ['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=24:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', join(dir, 'runway.mp4')] });
    clip = readFileSync(join(dir, 'runway.mp4'));
    await runFfmpeg({ args: ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=12:sample_rate=44100', '-c:a', 'flac', join(dir, 'tone.flac')] });
    await runFfmpeg({ args: ['-f', 'lavfi', '-i', "aevalsrc='if(gte(t,6),0.9*sin(2*PI*660*t),0)':d=12:s=44100", '-c:a', 'flac', join(dir, 'late.flac')] });
    stems.push({ input: join(dir, 'tone.flac'), gainDb: -6 }, { input: join(dir, 'late.flac'), gainDb: 0 });
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const request = (span: VideoRenderRequest['span'], scratchDir: string, onProgress: (f: number) => void = () => undefined): VideoRenderRequest => ({
    stems,
    songSeconds: 12,
    bpm: 120,
    beatsPerBar: 4,
    span,
    resolution: '720p',
    prompt: 'neon rain',
    scratchDir,
    onProgress,
    signal: new AbortController().signal,
  });
  const fakeClient = {
    prompts: [] as string[],
    async generate(input: { promptText: string; outputPath: string; onProgress(f: number): void }) {
      this.prompts.push(input.promptText);
      input.onProgress(0.5);
      writeFileSync(input.outputPath, clip);
      input.onProgress(1);
      return 2;
    },
  };

  it('loops the 2 s clip over the chosen span at 1280x720 30 fps, with the stems\' mix of that span as an AAC soundtrack', async () => {
    const scratch = await mkdtemp(join(dir, 'custom-'));
    const progress: number[] = [];
    const provider = new RunwayVideoProvider(fakeClient, () => Promise.reject(new Error('no chorus asked')));
    const video = await provider.render(request({ kind: 'custom', startSeconds: 4, endSeconds: 9 }, scratch, (f) => progress.push(f)));
    expect(video).toMatchObject({ contentType: 'video/mp4', width: 1280, height: 720, fps: 30, startSeconds: 4, endSeconds: 9, clipSeconds: 2 });
    expect(fakeClient.prompts).toEqual(['neon rain']);
    const probed = probe(video.path);
    expect(probed.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['video', 'h264'], ['audio', 'aac']]);
    expect(probed.streams[0]).toMatchObject({ width: 1280, height: 720, r_frame_rate: '30/1' });
    expect(Math.abs(probed.duration - 5)).toBeLessThan(0.15);
    // Song seconds 4–6 hold only the tone at −6 dB; from 6 s the louder stem joins: the soundtrack is that span of the mix.
    expect(meanVolume(video.path, 2.3, 2.5)).toBeGreaterThan(meanVolume(video.path, 0.2, 1.5) + 3);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  }, 60_000);

  it('takes the chorus the finder chooses, and the whole song for full', async () => {
    const finder = jest.fn(async () => ({ startSeconds: 2, endSeconds: 5 }));
    const provider = new RunwayVideoProvider(fakeClient, finder);
    const chorus = await provider.render(request({ kind: 'chorus' }, await mkdtemp(join(dir, 'chorus-'))));
    expect(chorus).toMatchObject({ startSeconds: 2, endSeconds: 5 });
    expect(Math.abs(probe(chorus.path).duration - 3)).toBeLessThan(0.15);
    const full = await provider.render(request({ kind: 'full' }, await mkdtemp(join(dir, 'full-'))));
    expect(full).toMatchObject({ startSeconds: 0, endSeconds: 12 });
    expect(Math.abs(probe(full.path).duration - 12)).toBeLessThan(0.15);
    expect(finder).toHaveBeenCalledTimes(1);
  }, 60_000);

  it('reads each stem from the span\'s start for its length, mixed at its gain into the soundtrack', () => {
    const args = soundtrackArgs([{ input: 'a', gainDb: -3 }, { input: 'b', gainDb: 0 }], 1.5, 2);
    expect(args.inputs).toEqual(['-ss', '1.5', '-t', '2', '-i', 'a', '-ss', '1.5', '-t', '2', '-i', 'b']);
    expect(args.filter).toContain('[0:a:0]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,volume=-3dB[s0]');
    expect(args.filter).toMatch(/amix=inputs=2:normalize=0.*\[mix\]$/);
    expect(soundtrackArgs([{ input: 'a', gainDb: 0 }], 0, 2).inputs).toEqual(['-t', '2', '-i', 'a']);
  });
});
