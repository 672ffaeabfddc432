import type { ProvidedVideo, VideoProvider } from '../jobs/jobs.ports';
import type { ChorusFinder } from '../providers/runway-video.provider';
import { FfmpegVideoRenderer } from './render/ffmpeg-video-renderer';
import type { VideoRenderer, VideoRenderRequest } from './video-renderer.port';

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

/**
 * The chorus the local renderer chooses (render/chorus.ts: the bar-aligned 30 s with the most energy and
 * repetition), for a cloud provider's video of the same song. Its reading of the song is not part of the job's
 * progress (the provider's own work is).
 */
export function localChorus(renderer = new FfmpegVideoRenderer()): ChorusFinder {
  return (request) => renderer.chorusOf({ ...request, onProgress: () => undefined });
}
