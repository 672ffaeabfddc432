import { runFfmpeg } from '@stemdeck/audio';
import { join } from 'node:path';
import type { ProvidedVideo, VideoProvider } from '../jobs/jobs.ports';
import { mixFilter } from '../video/render/render-graph';
import { VIDEO_FPS, VIDEO_SIZES, type VideoRenderRequest } from '../video/video-renderer.port';
import type { RunwayVideoClient } from './runway-video.client';

/** The part of the song a chorus loop takes (the same choice the local renderer makes). */
export type ChorusFinder = (request: VideoRenderRequest) => Promise<{ startSeconds: number; endSeconds: number }>;

/** Shares of the job's progress: Runway's generation, then fitting the clip to the song. */
const GENERATE_SHARE = 0.7;
/** No ffmpeg pass may run longer than this (a stalled stem read would otherwise hang the job). */
const PASS_LIMIT_SECONDS = 30 * 60;

/** The stems' mix over [start, start+length) at their mixer gains (as the local renderer mixes them): ffmpeg inputs and a filter ending in [mix]. */
export function soundtrackArgs(stems: VideoRenderRequest['stems'], startSeconds: number, lengthSeconds: number): { inputs: string[]; filter: string } {
  const inputs = stems.flatMap((stem) => [...(startSeconds > 0 ? ['-ss', String(startSeconds)] : []), '-t', String(lengthSeconds), '-i', stem.input]);
  const filter = mixFilter(stems.length, stems.map((stem) => stem.gainDb), { sampleRate: 48_000, layout: 'stereo', durationSeconds: lengthSeconds });
  return { inputs, filter };
}

/**
 * Music videos by Runway: its text-to-video model makes a short silent clip from the prompt, and ffmpeg fits it
 * to the song — the clip looped (or cut) over the chosen part, scaled and cropped to the resolution at 30 fps,
 * with the sounding stems at their saved mix as the soundtrack (H.264/AAC MP4, faststart). The soundtrack is
 * mixed while Runway works, so the stems are read once, early.
 */
export class RunwayVideoProvider implements VideoProvider {
  readonly name = 'runway' as const;

  constructor(
    private readonly client: Pick<RunwayVideoClient, 'generate'>,
    private readonly chorus: ChorusFinder,
    private readonly ffmpeg = 'ffmpeg',
  ) {}

  async render(request: VideoRenderRequest): Promise<ProvidedVideo> {
    const { signal, scratchDir } = request;
    const { startSeconds, endSeconds } = await this.span(request);
    const length = endSeconds - startSeconds;
    const { width, height } = VIDEO_SIZES[request.resolution];
    const clipPath = join(scratchDir, 'runway-clip.mp4');
    const soundtrackPath = join(scratchDir, 'soundtrack.m4a');
    const videoPath = join(scratchDir, 'video.mp4');

    const soundtrack = soundtrackArgs(request.stems, startSeconds, length);
    const mixing = runFfmpeg({
      ffmpeg: this.ffmpeg,
      args: [...soundtrack.inputs, '-filter_complex', soundtrack.filter, '-map', '[mix]', '-t', length.toFixed(3), '-c:a', 'aac', '-b:a', '192k', '-ar', '48000', soundtrackPath],
      signal,
      timeoutSeconds: PASS_LIMIT_SECONDS,
    });
    // Both run; a failure of either stops the job (the other is stopped by the job's abort).
    const [clipSeconds] = await Promise.all([
      this.client.generate({ promptText: request.prompt, outputPath: clipPath, onProgress: (fraction) => request.onProgress(fraction * GENERATE_SHARE), signal }),
      mixing,
    ]);

    const picture = `[0:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},fps=${VIDEO_FPS},setsar=1,format=yuv420p[v]`;
    await runFfmpeg({
      ffmpeg: this.ffmpeg,
      args: [
        '-stream_loop', '-1', '-i', clipPath,
        '-i', soundtrackPath,
        '-filter_complex', picture,
        '-map', '[v]', '-map', '1:a',
        '-t', length.toFixed(3),
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-profile:v', 'high',
        '-c:a', 'copy',
        '-movflags', '+faststart',
        videoPath,
      ],
      durationSeconds: length,
      onProgress: (fraction) => request.onProgress(GENERATE_SHARE + fraction * (1 - GENERATE_SHARE)),
      signal,
      timeoutSeconds: PASS_LIMIT_SECONDS,
    });
    return { path: videoPath, contentType: 'video/mp4', width, height, fps: VIDEO_FPS, startSeconds, endSeconds, clipSeconds };
  }

  private async span(request: VideoRenderRequest): Promise<{ startSeconds: number; endSeconds: number }> {
    switch (request.span.kind) {
      case 'full':
        return { startSeconds: 0, endSeconds: request.songSeconds };
      case 'custom':
        return { startSeconds: request.span.startSeconds, endSeconds: request.span.endSeconds };
      default:
        return this.chorus(request);
    }
  }
}
