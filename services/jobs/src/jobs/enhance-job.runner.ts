import { Inject, Injectable } from '@nestjs/common';
import { weightedProgress } from '@stemdeck/platform';
import { EnhanceParameters } from '@stemdeck/proto';
import { NotRunnable, type JobRunner, type RunningJob } from './job-runner';
import type { JobDocument, JobOutputDocument } from './job.schema';
import { ENHANCE_PROVIDER, JOB_STORAGE, MEDIA_PROJECTS, type EnhanceProvider, type JobResult, type JobStorage, type MediaProjects } from './jobs.ports';

export const ENHANCEMENT_FAILED = 'Enhancement failed';
export const NOTHING_TO_ENHANCE = 'Nothing to enhance: the project has none of the chosen stems';
export const STEMS_CHANGED = 'The project\'s stems changed while they were being enhanced';

/**
 * An enhance job's work: each chosen stem among the project's active ones, read in its ORIGINAL version (an
 * enhancement never stacks on an earlier one), enhanced by the provider (progress shared equally between the
 * stems) and uploaded to the job's folder as `<type>.flac` with its own before/after figures; then the outputs
 * handed to media, which makes them the stems' enhanced versions (the mixer switches to them, the originals
 * stay). The job completes only after that.
 *
 * Why hand over before completing: once media points a stem at an object, removing that object would break the
 * stem, so the hand-over is the point of no return. The job first claims it (beginFinishing: a cancel is
 * refused from then on; a cancel that came first stops the job here and nothing is handed over), then media
 * attaches, then RunJobUseCase completes. Completing first would leave a "completed" job whose stems might
 * never switch (media unreachable) with no way to fail it. What remains: a delivery that dies, or a media
 * reply lost, between attach and complete runs again (same keys, attached again); only when every attempt
 * fails after media attached does the failed job's cleanup leave the stems' enhanced version without its
 * object (media then answers 404 for that version; the original is untouched). A project deleted meanwhile
 * makes media answer 404: the job stops and removes its objects.
 */
@Injectable()
export class EnhanceJobRunner implements JobRunner {
  readonly failure = ENHANCEMENT_FAILED;

  constructor(
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'activeStems' | 'attachEnhancedStems'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'presignedReadUrl'>,
    @Inject(ENHANCE_PROVIDER) private readonly provider: EnhanceProvider,
  ) {}

  async run(job: JobDocument, running: RunningJob): Promise<JobResult> {
    const { ownerId, projectId, _id: jobId } = job;
    const { enhancements, targetStems } = EnhanceParameters.parse(job.parameters);
    const targets = (await this.media.activeStems(ownerId, projectId, 'original')).filter((stem) => targetStems[stem.type]);
    if (targets.length === 0) throw new NotRunnable(NOTHING_TO_ENHANCE);
    const pass = weightedProgress(targets.map(() => 1), running.progress);
    const outputs: JobOutputDocument[] = [];
    for (const [index, stem] of targets.entries()) {
      const input = await this.storage.presignedReadUrl(stem.objectKey);
      const file = await this.provider.enhanceStem({ input, enhancements, onProgress: pass(index), signal: running.signal });
      try {
        const stored = await running.store(`${stem.type}.flac`, file.path, file.contentType);
        outputs.push({ ...stored, stemType: stem.type, before: file.before, after: file.after });
      } finally {
        await file.dispose().catch(() => undefined);
      }
    }
    await running.beginFinishing();
    const stems = targets.map((stem, index) => ({ stemId: stem.id, objectKey: outputs[index]!.objectKey }));
    if ((await this.media.attachEnhancedStems(ownerId, projectId, jobId, stems)) === 'absent') throw new NotRunnable(STEMS_CHANGED);
    return { outputs };
  }
}
