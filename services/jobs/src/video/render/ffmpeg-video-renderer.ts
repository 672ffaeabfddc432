import { startFfmpeg } from '@stemdeck/audio';
import { join } from 'node:path';
import {
  CHORUS_SECONDS,
  VIDEO_FPS,
  VIDEO_SIZES,
  type RenderedVideo,
  type VideoRenderer,
  type VideoRenderRequest,
  type VideoStemInput,
} from '../video-renderer.port';
import { chooseChorus, type ChorusChoice } from './chorus';
import { lookFromPrompt, promptHash } from './look';
import { encoderSettings, filterGraph, mixFilter } from './render-graph';
import { FEATURE_SAMPLE_RATE, SongFeatureReader } from './song-features';

export interface FfmpegVideoRendererConfig {
  ffmpeg: string;
  /** libx264's threads; 0 lets it choose (about 1.5 per core). */
  encoderThreads: number;
  /** x264 constant rate factor: lower is better looking and larger. */
  crf: number;
  /** Longest wait for bytes on one HTTP read of a stem before the render fails (ffmpeg's rw_timeout). */
  readTimeoutSeconds: number;
  /** Longest pause between reconnect attempts after a network error. */
  reconnectDelayMaxSeconds: number;
  /** A render may take this many seconds per second of video (then at least minRunSeconds) before it is stopped. */
  runSecondsPerVideoSecond: number;
  minRunSeconds: number;
}

export const DEFAULT_VIDEO_RENDERER_CONFIG: FfmpegVideoRendererConfig = {
  ffmpeg: 'ffmpeg',
  encoderThreads: 0,
  crf: 21,
  readTimeoutSeconds: 30,
  reconnectDelayMaxSeconds: 10,
  runSecondsPerVideoSecond: 8,
  minRunSeconds: 300,
};

/** Share of the progress bar for reading the song to choose its chorus (the render takes the rest). */
const CHORUS_ANALYSIS_SHARE = 0.05;

/**
 * The local music video (see render-graph.ts for the picture, look.ts for the prompt, chorus.ts for the chorus loop,
 * beat-flash.ts for the beats): one ffmpeg run reads the stems over their urls, mixes them at their gains, draws the
 * audio-reactive picture and encodes H.264 (yuv420p) and AAC 192 kb/s into an MP4 with its index first (faststart),
 * exactly the span's length. A failed run rejects with ffmpeg's MediaToolError (its log is for the job's log, not
 * for users); an aborted one kills ffmpeg and rejects with the signal's reason.
 */
export class FfmpegVideoRenderer implements VideoRenderer {
  private readonly config: FfmpegVideoRendererConfig;

  constructor(config: Partial<FfmpegVideoRendererConfig> = {}) {
    this.config = { ...DEFAULT_VIDEO_RENDERER_CONFIG, ...config };
  }

  async render(request: VideoRenderRequest): Promise<RenderedVideo> {
    request.signal.throwIfAborted();
    const { width, height } = VIDEO_SIZES[request.resolution];
    const fps = VIDEO_FPS;
    const bpm = request.bpm > 0 && Number.isFinite(request.bpm) ? request.bpm : 120;
    const beatsPerBar = Math.max(1, Math.round(request.beatsPerBar) || 4);
    const songSeconds = request.songSeconds;
    if (!(songSeconds > 0)) throw new RangeError('The song has no length to render');
    const look = lookFromPrompt(request.prompt);

    const analysed = request.span.kind === 'chorus';
    const renderShare = analysed ? 1 - CHORUS_ANALYSIS_SHARE : 1;
    const span = await this.resolveSpan(request, bpm, beatsPerBar);
    const durationSeconds = Math.round((span.endSeconds - span.startSeconds) * fps) / fps;
    if (!(durationSeconds > 0)) throw new RangeError('The part of the song to render is empty');

    const graph = filterGraph(
      {
        stemCount: request.stems.length,
        width,
        height,
        fps,
        durationSeconds,
        grid: { bpm, beatsPerBar, startSeconds: span.startSeconds, fps },
        palette: look.palette,
        mode: look.mode,
        motion: look.motion,
        seed: promptHash(request.prompt),
      },
      request.stems.map((stem) => stem.gainDb),
    );
    const output = join(request.scratchDir, 'video.mp4');
    await startFfmpeg({
      args: [
        '-xerror',
        ...request.stems.flatMap((stem) => this.inputArgs(stem, span.startSeconds, durationSeconds)),
        '-filter_complex', graph,
        '-map', '[v]', '-map', '[a]',
        '-c:v', 'libx264', ...encoderSettings(width, height), '-crf', String(this.config.crf),
        '-threads', String(this.config.encoderThreads), '-pix_fmt', 'yuv420p', '-r', String(fps),
        '-c:a', 'aac', '-b:a', '192k', '-ar', '48000',
        '-movflags', '+faststart', '-t', String(durationSeconds),
        output,
      ],
      ffmpeg: this.config.ffmpeg,
      durationSeconds,
      onProgress: (fraction) => request.onProgress(1 - renderShare + fraction * renderShare),
      signal: request.signal,
      timeoutSeconds: this.runLimit(durationSeconds),
    }).done;
    return {
      path: output,
      contentType: 'video/mp4',
      width,
      height,
      fps,
      startSeconds: span.startSeconds,
      endSeconds: span.startSeconds + durationSeconds,
      look,
    };
  }

  /** The part of the song to render: the whole, a custom range within the song, or the chosen chorus. */
  private async resolveSpan(request: VideoRenderRequest, bpm: number, beatsPerBar: number): Promise<ChorusChoice> {
    const { span, songSeconds } = request;
    if (span.kind === 'full') return { startSeconds: 0, endSeconds: songSeconds };
    if (span.kind === 'custom') {
      const startSeconds = Math.min(Math.max(0, span.startSeconds), songSeconds);
      return { startSeconds, endSeconds: Math.min(Math.max(startSeconds, span.endSeconds), songSeconds) };
    }
    return this.chorusOf({ ...request, bpm, beatsPerBar, onProgress: (fraction) => request.onProgress(fraction * CHORUS_ANALYSIS_SHARE) });
  }

  /**
   * The song's chorus (chorus.ts) from the stems' mono mix read once at the analysis rate; a song no longer than
   * the loop is taken whole. A cloud provider's video of the same song uses it too (local-video.provider.ts).
   */
  async chorusOf(request: Pick<VideoRenderRequest, 'stems' | 'songSeconds' | 'bpm' | 'beatsPerBar' | 'signal' | 'onProgress'>): Promise<ChorusChoice> {
    const { songSeconds, bpm, beatsPerBar } = request;
    if (songSeconds <= CHORUS_SECONDS) return { startSeconds: 0, endSeconds: songSeconds };
    const reader = new SongFeatureReader();
    if (request.stems.length > 0) {
      await startFfmpeg({
        args: [
          '-xerror',
          ...request.stems.flatMap((stem) => this.inputArgs(stem, 0, songSeconds)),
          '-filter_complex', mixFilter(request.stems.length, request.stems.map((stem) => stem.gainDb), { sampleRate: FEATURE_SAMPLE_RATE, layout: 'mono' }),
          '-map', '[mix]', '-f', 'f32le', '-c:a', 'pcm_f32le', 'pipe:1',
        ],
        ffmpeg: this.config.ffmpeg,
        durationSeconds: songSeconds,
        onStdout: (chunk) => reader.push(chunk),
        onProgress: request.onProgress,
        signal: request.signal,
        timeoutSeconds: this.runLimit(songSeconds / 4),
      }).done;
    }
    return chooseChorus(reader.features(), { songSeconds, bpm, beatsPerBar });
  }

  /**
   * One stem's input: from `startSeconds` for `durationSeconds`; over HTTP with reconnects on network errors (from
   * where it stopped) and a read that waits too long failing the run (with -xerror, a dropped connection fails the
   * render instead of ending the song early).
   */
  private inputArgs(stem: VideoStemInput, startSeconds: number, durationSeconds: number): string[] {
    const seek = [...(startSeconds > 0 ? ['-ss', String(startSeconds)] : []), '-t', String(durationSeconds)];
    if (!/^https?:\/\//i.test(stem.input)) return [...seek, '-i', stem.input];
    return [
      '-reconnect', '1', '-reconnect_on_network_error', '1',
      '-reconnect_delay_max', String(this.config.reconnectDelayMaxSeconds),
      '-rw_timeout', String(Math.round(this.config.readTimeoutSeconds * 1e6)),
      ...seek, '-i', stem.input,
    ];
  }

  private runLimit(mediaSeconds: number): number {
    return Math.max(this.config.minRunSeconds, mediaSeconds * this.config.runSecondsPerVideoSecond);
  }
}
