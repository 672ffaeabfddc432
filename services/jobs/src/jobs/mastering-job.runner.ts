import { Inject, Injectable } from '@nestjs/common';
import { MasteringParameters } from '@stemdeck/proto';
import { NotRunnable, type JobRunner, type RunningJob } from './job-runner';
import type { JobDocument } from './job.schema';
import {
  JOB_STORAGE,
  MASTERING_PROVIDER,
  MEDIA_PROJECTS,
  type JobResult,
  type JobStorage,
  type MasteredSet,
  type MasteringProvider,
  type MediaProjects,
} from './jobs.ports';
import { masterPlan, MASTER_OUTPUT } from './master-plan';

export { MASTER_OUTPUT, soundingStems } from './master-plan';

export const MASTERING_FAILED = 'Mastering failed';

/**
 * A mastering job's work (full-mix, per-stem or stem-groups, see master-plan.ts): the project's active stems
 * at their saved mix, as the mixer plays them (the enhanced version of a stem that has one switched on),
 * mastered by the provider with real progress, every output uploaded to the job's own folder. The shared
 * delivery (RunJobUseCase) stores the figures and acknowledges.
 */
@Injectable()
export class MasteringJobRunner implements JobRunner {
  readonly failure = MASTERING_FAILED;

  constructor(
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'activeStems'>,
    @Inject(JOB_STORAGE) private readonly storage: Pick<JobStorage, 'presignedReadUrl'>,
    @Inject(MASTERING_PROVIDER) private readonly provider: MasteringProvider,
  ) {}

  async run(job: JobDocument, running: RunningJob): Promise<JobResult> {
    const mastered = await this.master(job, running);
    try {
      const outputs = [];
      for (const file of mastered.files) outputs.push(await running.store(file.name, file.path, file.contentType));
      return { outputs, before: mastered.before, after: mastered.after };
    } finally {
      await mastered.dispose().catch(() => undefined);
    }
  }

  /** Full-mix: the sounding stems summed and mastered; per-stem and stem-groups: each part mastered and their sum brought to the same target. */
  private async master(job: JobDocument, running: RunningJob): Promise<MasteredSet> {
    const { ownerId, projectId } = job;
    const { masterType, style, intensity } = MasteringParameters.parse(job.parameters);
    const plan = masterPlan(masterType, await this.media.activeStems(ownerId, projectId));
    if (plan.parts.length === 0) throw new NotRunnable('Nothing to master: the project has no stems, or every stem is muted');
    const parts = await Promise.all(
      plan.parts.map(async (part) => ({
        name: part.name,
        stems: await Promise.all(part.stems.map(async (stem) => ({ input: await this.storage.presignedReadUrl(stem.objectKey), gainDb: stem.volume }))),
      })),
    );
    const common = { style, intensity: intensity as 1 | 2 | 3, onProgress: running.progress, signal: running.signal };
    if (!plan.sum) {
      const file = await this.provider.masterMix({ stems: parts[0].stems, ...common });
      return { files: [{ name: MASTER_OUTPUT, path: file.path, contentType: file.contentType }], before: file.before, after: file.after, dispose: file.dispose };
    }
    return this.provider.masterSet({ parts, sum: plan.sum, ...common });
  }
}
