import { runFfmpeg } from '@stemdeck/audio';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoRenderRequest } from './video-renderer.port';
import { localChorus } from './local-video.provider';
import { FfmpegVideoRenderer } from './render/ffmpeg-video-renderer';

describe('localChorus: the local renderer\'s chorus for a cloud video (real ffmpeg)', () => {
  let dir: string;
  const request = (stems: VideoRenderRequest['stems'], songSeconds: number) =>
    ({ stems, songSeconds, bpm: 120, beatsPerBar: 4, signal: new AbortController().signal }) as VideoRenderRequest;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-chorus-spec-'));
    // 72 s at 120 BPM (36 bars): a quiet tone, then from 40 s a loud one for 24 s, then quiet again.
    await runFfmpeg({
      args: ['-f', 'lavfi', '-i', "aevalsrc='if(between(t,40,64),0.8,0.05)*sin(2*PI*330*t)':d=72:s=22050", '-c:a', 'flac', join(dir, 'song.flac')],
    });
  }, 30_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('chooses 30 bar-aligned seconds over the loud part', async () => {
    const chosen = await localChorus()(request([{ input: join(dir, 'song.flac'), gainDb: 0 }], 72));
    expect(chosen.endSeconds - chosen.startSeconds).toBeCloseTo(30, 5);
    expect(chosen.startSeconds).toBeGreaterThanOrEqual(34);
    expect(chosen.startSeconds).toBeLessThanOrEqual(40);
    // Bars of 2 s at 120 BPM in 4/4.
    expect(chosen.startSeconds % 2).toBeCloseTo(0, 5);
  }, 30_000);

  it('takes a song no longer than the loop whole, without reading it', async () => {
    expect(await localChorus(new FfmpegVideoRenderer({ ffmpeg: 'no-such-ffmpeg' }))(request([{ input: 'x', gainDb: 0 }], 24))).toEqual({ startSeconds: 0, endSeconds: 24 });
  });
});
