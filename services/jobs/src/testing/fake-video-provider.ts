import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProvidedVideo, VideoProvider } from '../jobs/jobs.ports';
import { VIDEO_FPS, VIDEO_SIZES, type VideoRenderer, type VideoRenderRequest } from '../video/video-renderer.port';
import { reportSteps } from './fake-mastering-provider';

/**
 * A video renderer that reports `steps` progress fractions (the event loop runs between them, as ffmpeg's
 * reports would), honours the abort signal and writes a small file into the scratch folder it was given; the
 * chorus is 60–90 s. `failures` attempts throw first.
 */
export class FakeVideoRenderer implements VideoRenderer, VideoProvider {
  readonly requests: VideoRenderRequest[] = [];
  failures = 0;
  failure = new Error('ffmpeg exited with code 1');
  steps = [0.1, 0.4, 0.7, 0.9];
  /** Called after each progress report (a test can cancel the job or delete the project there). */
  onStep?: (fraction: number) => Promise<void> | void;

  constructor(readonly name: 'local' | 'runway' = 'local') {}

  async render(request: VideoRenderRequest): Promise<ProvidedVideo & { look: { palette: string; mode: string; motion: string } }> {
    this.requests.push(request);
    if (this.failures > 0) {
      this.failures--;
      throw this.failure;
    }
    await reportSteps(this.steps, request, (fraction) => this.onStep?.(fraction));
    const path = join(request.scratchDir, 'video.mp4');
    await writeFile(path, Buffer.from(`video of ${request.prompt}`));
    const span = request.span;
    const [startSeconds, endSeconds] = span.kind === 'custom' ? [span.startSeconds, span.endSeconds] : span.kind === 'chorus' ? [60, 90] : [0, request.songSeconds];
    return { path, contentType: 'video/mp4', ...VIDEO_SIZES[request.resolution], fps: VIDEO_FPS, startSeconds, endSeconds, look: { palette: 'neon', mode: 'bars', motion: 'pulse' } };
  }
}
