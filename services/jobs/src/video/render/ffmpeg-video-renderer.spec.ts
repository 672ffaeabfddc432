import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { VideoRenderRequest } from '../video-renderer.port';
import { beatFrames } from './beat-flash';
import { FfmpegVideoRenderer } from './ffmpeg-video-renderer';
import { flashTiming, measureFrameBrightness } from './flash-timing';

const run = promisify(execFile);

/** A song file made by ffmpeg's lavfi source `source` (an aevalsrc/anullsrc expression), `seconds` long. */
async function makeSong(path: string, source: string, seconds: number): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', String(seconds), '-ac', '2', '-ar', '44100', path]);
}

interface Probe {
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; avg_frame_rate?: string; pix_fmt?: string; duration?: string; nb_frames?: string }>;
  format: { duration: string; format_name: string };
}

async function probe(path: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]);
  return JSON.parse(stdout) as Probe;
}

/** The mean level of a file's audio in dB (ffmpeg's volumedetect). */
async function meanVolumeDb(path: string): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-v', 'info', '-nostats', '-i', path, '-map', '0:a:0', '-af', 'volumedetect', '-f', 'null', '-']);
  return Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)?.[1]);
}

/** Serves files of `dir` over HTTP with byte ranges (as object storage does), on a free port. */
async function serveFolder(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = join(dir, decodeURIComponent((request.url ?? '/').slice(1)));
    void stat(path).then(
      ({ size }) => {
        const range = /bytes=(\d+)-(\d*)/.exec(request.headers.range ?? '');
        const start = range ? Number(range[1]) : 0;
        const end = range && range[2] ? Number(range[2]) : size - 1;
        response.writeHead(range ? 206 : 200, {
          'Content-Length': end - start + 1,
          'Accept-Ranges': 'bytes',
          ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
        });
        createReadStream(path, { start, end }).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** True while a process whose command line mentions `marker` runs. */
async function processRunningWith(marker: string): Promise<boolean> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) return true;
  }
  return false;
}

describe('FfmpegVideoRenderer (real ffmpeg)', () => {
  let dir: string;
  const renderer = new FfmpegVideoRenderer();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'video-render-spec-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function request(overrides: Partial<VideoRenderRequest>): VideoRenderRequest {
    return {
      stems: [],
      songSeconds: 10,
      bpm: 120,
      beatsPerBar: 4,
      span: { kind: 'full' },
      resolution: '720p',
      prompt: 'neon waveform party',
      scratchDir: dir,
      onProgress: () => undefined,
      signal: new AbortController().signal,
      ...overrides,
    };
  }

  it('renders 6 s of a 120 BPM click track at 720p: H.264/AAC, 1280x720, 30 fps, 6 s, a flash on each beat\'s frame', async () => {
    const song = join(dir, 'clicks.wav');
    // A 10 ms 1 kHz click on every beat (every 0.5 s) over a quiet 80 Hz hum.
    await makeSong(song, "aevalsrc='0.8*lt(mod(t,0.5),0.01)*sin(2*PI*1000*t)+0.1*sin(2*PI*80*t)':s=44100", 10);
    const progress: number[] = [];
    // From 1.1 s: the first beat in the video is song beat 3 (1.5 s), 12 frames in; a start off the grid on purpose.
    const video = await renderer.render(
      request({
        stems: [{ input: song, gainDb: -3 }],
        span: { kind: 'custom', startSeconds: 1.1, endSeconds: 7.1 },
        onProgress: (fraction) => progress.push(fraction),
      }),
    );
    expect(video).toMatchObject({ contentType: 'video/mp4', width: 1280, height: 720, fps: 30, startSeconds: 1.1, look: { palette: 'neon', mode: 'waves', motion: 'pulse' } });
    expect(video.endSeconds).toBeCloseTo(7.1, 9);
    expect(video.path.startsWith(dir)).toBe(true);

    const probed = await probe(video.path);
    const videoStream = probed.streams.find((stream) => stream.codec_type === 'video')!;
    const audioStream = probed.streams.find((stream) => stream.codec_type === 'audio')!;
    expect(videoStream).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, avg_frame_rate: '30/1', pix_fmt: 'yuv420p' });
    expect(audioStream).toMatchObject({ codec_name: 'aac' });
    expect(Math.abs(Number(probed.format.duration) - 6)).toBeLessThanOrEqual(1 / 30);
    expect(Math.abs(Number(audioStream.duration) - 6)).toBeLessThanOrEqual(1 / 30);
    expect(Number(videoStream.nb_frames)).toBe(180);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);

    const brightness = await measureFrameBrightness(video.path);
    expect(brightness.length).toBe(180);
    const beats = beatFrames({ bpm: 120, beatsPerBar: 4, startSeconds: 1.1, fps: 30 }, 180);
    expect(beats.slice(0, 3)).toEqual([
      { beat: 3, frame: 12, downbeat: false },
      { beat: 4, frame: 27, downbeat: true },
      { beat: 5, frame: 42, downbeat: false },
    ]);
    expect(beats).toHaveLength(12);
    // Within one frame is the goal; the flash is computed from the frame number, so it lands on the frame itself.
    const timing = flashTiming(brightness, beats, 15);
    expect(timing.maxErrorFrames).toBeLessThanOrEqual(1);
    expect(timing.offsets).toEqual(beats.map(() => 0));
    // A flash, not noise: each beat's frame is well above the frame before it.
    for (const { frame } of beats) expect(brightness[frame]! - brightness[frame - 1]!).toBeGreaterThan(10);
  }, 60_000);

  it('mixes the stems at their gains, read over HTTP from a point in the song', async () => {
    await makeSong(join(dir, 'low.wav'), "aevalsrc='0.5*sin(2*PI*220*t)':s=44100", 6);
    await makeSong(join(dir, 'high.wav'), "aevalsrc='0.5*sin(2*PI*330*t)':s=44100", 6);
    const { server, url } = await serveFolder(dir);
    try {
      const alone = await renderer.render(
        request({ stems: [{ input: `${url}/low.wav`, gainDb: 0 }], songSeconds: 6, span: { kind: 'custom', startSeconds: 2, endSeconds: 4 }, scratchDir: await mkdtemp(join(dir, 'a-')) }),
      );
      const mixed = await renderer.render(
        request({
          stems: [{ input: `${url}/low.wav`, gainDb: -20 }, { input: `${url}/high.wav`, gainDb: -20 }],
          songSeconds: 6,
          span: { kind: 'custom', startSeconds: 2, endSeconds: 4 },
          scratchDir: await mkdtemp(join(dir, 'b-')),
        }),
      );
      // Two uncorrelated sines of the same level sum 3 dB above one; each was lowered by 20 dB.
      const difference = (await meanVolumeDb(mixed.path)) - (await meanVolumeDb(alone.path));
      expect(difference).toBeGreaterThan(-17 - 1);
      expect(difference).toBeLessThan(-17 + 1);
      expect(Math.abs(Number((await probe(mixed.path)).format.duration) - 2)).toBeLessThanOrEqual(1 / 30);
    } finally {
      server.close();
    }
  }, 60_000);

  it('renders a silent song: the flashes come from the grid alone', async () => {
    const song = join(dir, 'silence.wav');
    await makeSong(song, 'anullsrc=r=44100:cl=stereo', 5);
    // 100 BPM: 18 frames per beat; the song's start is a downbeat.
    const video = await renderer.render(
      request({ stems: [{ input: song, gainDb: 0 }], songSeconds: 5, bpm: 100, span: { kind: 'full' }, prompt: 'calm ocean spectrum' }),
    );
    expect(video.look).toEqual({ palette: 'ocean', mode: 'spectrum', motion: 'calm' });
    const brightness = await measureFrameBrightness(video.path);
    expect(brightness.length).toBe(150);
    const beats = beatFrames({ bpm: 100, beatsPerBar: 4, startSeconds: 0, fps: 30 }, 150);
    expect(beats.map((beat) => beat.frame)).toEqual([0, 18, 36, 54, 72, 90, 108, 126, 144]);
    expect(flashTiming(brightness, beats, 18).offsets).toEqual(beats.map(() => 0));
    // Downbeats (frames 0, 72, 144) flash harder than the other beats.
    expect(brightness[72]!).toBeGreaterThan(brightness[36]! + 3);
    const { format } = await probe(video.path);
    expect(Math.abs(Number(format.duration) - 5)).toBeLessThanOrEqual(1 / 30);
  }, 60_000);

  it('renders with no sounding stems at all (every stem muted): silence the span\'s length', async () => {
    const video = await renderer.render(request({ stems: [], songSeconds: 2, span: { kind: 'chorus' }, prompt: 'mono bars' }));
    const probed = await probe(video.path);
    expect(probed.streams.map((stream) => stream.codec_type).sort()).toEqual(['audio', 'video']);
    expect(Math.abs(Number(probed.format.duration) - 2)).toBeLessThanOrEqual(1 / 30);
    expect(video).toMatchObject({ startSeconds: 0, endSeconds: 2 });
  }, 60_000);

  it('stops ffmpeg and rejects when aborted', async () => {
    const song = join(dir, 'long.wav');
    await makeSong(song, "aevalsrc='0.3*sin(2*PI*220*t)':s=44100", 60);
    const controller = new AbortController();
    let started!: () => void;
    const firstProgress = new Promise<void>((resolve) => (started = resolve));
    const rendering = renderer.render(
      request({
        stems: [{ input: song, gainDb: 0 }],
        songSeconds: 60,
        resolution: '4k',
        signal: controller.signal,
        onProgress: () => started(),
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([firstProgress, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
    clearTimeout(timer);
    expect(await processRunningWith(dir)).toBe(true);
    controller.abort(new Error('cancelled by the user'));
    await expect(rendering).rejects.toThrow('cancelled by the user');
    const deadline = Date.now() + 3_000;
    while ((await processRunningWith(dir)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await processRunningWith(dir)).toBe(false);
  }, 60_000);

  it('rejects a stem ffmpeg cannot read, with ffmpeg\'s reason kept for the log', async () => {
    await expect(renderer.render(request({ stems: [{ input: join(dir, 'missing.flac'), gainDb: 0 }] }))).rejects.toMatchObject({
      message: expect.stringContaining('ffmpeg exited'),
      stderr: expect.stringContaining('No such file'),
    });
  }, 30_000);
});
