import type { ProvidedVideo, VideoProvider } from '../jobs/jobs.ports';
import type { ChorusFinder } from '../providers/runway-video.provider';
import type { VideoRenderer, VideoRenderRequest } from './video-renderer.port';

/** The local renderer as the jobs' video provider (the job names it 'local'). */
export class LocalVideoProvider implements VideoProvider {
  readonly name = 'local' as const;

  constructor(private readonly renderer: VideoRenderer) {}

  render(request: VideoRenderRequest): Promise<ProvidedVideo> {
    return this.renderer.render(request);
  }
}

/** The local renderer (render/). */
export function localVideoRenderer(): VideoRenderer {
  return {
    render: () => Promise.reject(new Error('the local video renderer is not built yet')),
  };
}

/** The chorus the local renderer would choose, for a cloud provider's video of the same song. */
export const localChorus: ChorusFinder = async (request) => ({ startSeconds: 0, endSeconds: Math.min(request.songSeconds, 30) });
