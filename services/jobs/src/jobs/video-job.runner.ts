import { Inject, Injectable } from '@nestjs/common';
import { VIDEO_CHORUS_SECONDS, VIDEO_OUTPUT, VideoParameters, type VideoFacts } from '@stemdeck/proto';
import { JobScratch } from '../scratch/job-scratch';
import type { VideoRenderRequest } from '../video/video-renderer.port';
import { JobStopped, NotRunnable, type JobRunner, type RunningJob } from './job-runner';
import type { JobDocument } from './job.schema';
import { JOB_STORAGE, MEDIA_PROJECTS, VIDEO_PROVIDER, type JobResult, type JobStorage, type MediaProjects, type VideoProvider } from './jobs.ports';
import { soundingStems } from './master-plan';

export const VIDEO_FAILED = 'Video generation failed';
/** Bars of four beats: the studio's grid (the analysis finds the tempo, not the metre). */
export const BEATS_PER_BAR = 4;

/** Which part of the song the parameters ask for: a chorus of a song no longer than the loop is the whole song. */
export function videoSpan(parameters: VideoParameters, songSeconds: number): VideoRenderRequest['span'] {
  if (parameters.duration === 'chorus') return songSeconds <= VIDEO_CHORUS_SECONDS ? { kind: 'full' } : { kind: 'chorus' };
  if (parameters.duration === 'custom') {
    // Creation refused a span outside the song; a song re-analysed shorter since is clamped.
    const endSeconds = Math.min(parameters.customEnd ?? songSeconds, songSeconds);
    const startSeconds = Math.min(parameters.customStart ?? 0, endSeconds);
    if (endSeconds - startSeconds <= 0) throw new NotRunnable('The chosen part of the song is empty');
    return { kind: 'custom', startSeconds, endSeconds };
  }
  return { kind: 'full' };
}

/**
 * A video job's work: the project's sounding stems at their saved mix (the versions the mixer plays), its
 * analysed length and tempo, rendered by the configured provider (the local renderer, or Runway's clip
 * fitted to the song) into one H.264/AAC `video.mp4` with real progress, stored in the job's own folder with
 * the video's facts. A redelivery after a restart renders again from the start into a fresh scratch folder.
 */
@Injectable()
export class VideoJobRunner implements JobRunner {
  readonly failure = VIDEO_FAILED;

  constructor(
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'project' | 'activeStems'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'presignedReadUrl'>,
    @Inject(VIDEO_PROVIDER) private readonly provider: VideoProvider,
    @Inject(JobScratch) private readonly scratch: Pick<JobScratch, 'create'>,
  ) {}

  async run(job: JobDocument, running: RunningJob): Promise<JobResult> {
    const { ownerId, projectId } = job;
    const parameters = VideoParameters.parse(job.parameters);
    const project = await this.media.project(ownerId, projectId);
    // Deleted meanwhile: nothing to leave behind (the deletion's own sweep removes the job).
    if (!project) throw new JobStopped();
    if (project.bpm === null) throw new NotRunnable('The song has not been analysed yet');
    const sounding = soundingStems(await this.media.activeStems(ownerId, projectId));
    if (sounding.length === 0) throw new NotRunnable('Nothing to render: the project has no stems, or every stem is muted');
    const stems = await Promise.all(sounding.map(async (stem) => ({ input: await this.storage.presignedReadUrl(stem.objectKey), gainDb: stem.volume })));
    const folder = await this.scratch.create('video');
    try {
      const rendered = await this.provider.render({
        stems,
        songSeconds: project.durationSeconds,
        bpm: project.bpm,
        beatsPerBar: BEATS_PER_BAR,
        span: videoSpan(parameters, project.durationSeconds),
        resolution: parameters.resolution,
        prompt: parameters.prompt,
        scratchDir: folder.dir,
        onProgress: running.progress,
        signal: running.signal,
      });
      const video: VideoFacts = {
        resolution: parameters.resolution,
        width: rendered.width,
        height: rendered.height,
        fps: rendered.fps,
        startSeconds: rendered.startSeconds,
        endSeconds: rendered.endSeconds,
        ...(rendered.look ? { look: rendered.look } : {}),
        ...(rendered.clipSeconds !== undefined ? { clipSeconds: rendered.clipSeconds } : {}),
      };
      const output = await running.store(VIDEO_OUTPUT, rendered.path, rendered.contentType);
      return { outputs: [{ ...output, video }] };
    } finally {
      await folder.dispose().catch(() => undefined);
    }
  }
}
