import { runFfmpeg } from '@stemdeck/audio';
import type { ProvidedVideo, VideoProvider } from '../jobs/jobs.ports';
import type { ChorusFinder } from '../providers/runway-video.provider';
import { chooseChorus } from './render/chorus';
import { FfmpegVideoRenderer } from './render/ffmpeg-video-renderer';
import { mixFilter } from './render/render-graph';
import { FEATURE_SAMPLE_RATE, SongFeatureReader } from './render/song-features';
import { CHORUS_SECONDS, type VideoRenderer, type VideoRenderRequest } from './video-renderer.port';

/** The local renderer as the jobs' video provider (the job names it 'local'). */
export class LocalVideoProvider implements VideoProvider {
  readonly name = 'local' as const;

  constructor(private readonly renderer: VideoRenderer) {}

  render(request: VideoRenderRequest): Promise<ProvidedVideo> {
    return this.renderer.render(request);
  }
}

/** The local renderer (render/), with its default encoder settings. */
export function localVideoRenderer(): VideoRenderer {
  return new FfmpegVideoRenderer();
}

/** No read of the whole song for its chorus may run longer than this. */
const CHORUS_READ_LIMIT_SECONDS = 10 * 60;

/**
 * The chorus the local renderer chooses (render/chorus.ts: the bar-aligned 30 s with the most energy and
 * repetition), for a cloud provider's video of the same song: the stems' mono mix read at the analysis rate,
 * then the same choice. A song no longer than the loop is taken whole.
 */
export function localChorus(ffmpeg = 'ffmpeg'): ChorusFinder {
  return async ({ stems, songSeconds, bpm, beatsPerBar, signal }) => {
    if (songSeconds <= CHORUS_SECONDS || stems.length === 0) return { startSeconds: 0, endSeconds: Math.min(songSeconds, CHORUS_SECONDS) };
    const reader = new SongFeatureReader();
    await runFfmpeg({
      ffmpeg,
      args: [
        ...stems.flatMap((stem) => ['-t', String(songSeconds), '-i', stem.input]),
        '-filter_complex', mixFilter(stems.length, stems.map((stem) => stem.gainDb), { sampleRate: FEATURE_SAMPLE_RATE, layout: 'mono' }),
        '-map', '[mix]', '-f', 'f32le', '-c:a', 'pcm_f32le', 'pipe:1',
      ],
      onStdout: (chunk) => reader.push(chunk),
      signal,
      timeoutSeconds: CHORUS_READ_LIMIT_SECONDS,
    });
    return chooseChorus(reader.features(), { songSeconds, bpm, beatsPerBar });
  };
}
