import { Inject, Injectable } from '@nestjs/common';
import type { EnhanceParameters, JobRecord, MasteringParameters, VideoParameters } from '@stemdeck/proto';
import { CLOCK, ID_GENERATOR, RpcFailure, SERVICE_UNAVAILABLE, type Clock, type IdGenerator } from '@stemdeck/platform';
import { toJobRecord } from './job-record';
import { JOB_SLOTS, NOT_QUEUED, type JobSlotsPort } from './job-slots';
import {
  ENHANCE_PROVIDER,
  JOB_STORE,
  MASTERING_PROVIDER,
  MEDIA_PROJECTS,
  VIDEO_PROVIDER,
  type EnhanceProvider,
  type JobStore,
  type MasteringProvider,
  type MediaProjects,
  type VideoProvider,
} from './jobs.ports';

export const PROJECT_NOT_FOUND = 'Project not found';
export const STEMS_NOT_READY = 'Stems are not ready yet';
export const NOT_ANALYSED = 'The song is still being analysed';

/** A job to start: its project, and its type with that type's parameters. */
export type NewJobCommand =
  | { projectId: string; type: 'mastering'; parameters: MasteringParameters }
  | { projectId: string; type: 'enhance'; parameters: EnhanceParameters }
  | { projectId: string; type: 'video'; parameters: VideoParameters };

/** m:ss, as the panel shows a song's length. */
const minutesAndSeconds = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * Starts a job on a project (mastering, enhance or video): the project must be the owner's (404) and have
 * stems (409); a video also needs the song's analysis (its tempo: 409 until then) and a custom span inside the
 * song (400 naming the field). The job is stored as processing, named after the provider that will run it;
 * it is handed to the durable work queue (where RunJobUseCase picks it up) at once when its owner has a free
 * job slot, or waits its turn, the answer saying its place in the owner's line (JobSlots). A free slot whose
 * queue refused the job (NATS away) fails it and answers 503.
 */
@Injectable()
export class CreateJobUseCase {
  constructor(
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'exists' | 'project' | 'activeStems'>,
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'create' | 'findOwned'>,
    @Inject(JOB_SLOTS) private readonly slots: Pick<JobSlotsPort, 'admit'>,
    @Inject(MASTERING_PROVIDER) private readonly mastering: Pick<MasteringProvider, 'name'>,
    @Inject(ENHANCE_PROVIDER) private readonly enhance: Pick<EnhanceProvider, 'name'>,
    @Inject(VIDEO_PROVIDER) private readonly video: Pick<VideoProvider, 'name'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(ownerId: string, command: NewJobCommand): Promise<JobRecord> {
    const { projectId, type, parameters } = command;
    if (command.type === 'video') await this.checkVideo(ownerId, projectId, command.parameters);
    else if (!(await this.media.exists(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    if ((await this.media.activeStems(ownerId, projectId)).length === 0) throw new RpcFailure(409, STEMS_NOT_READY);
    const created = await this.jobs.create({
      _id: this.ids.randomUUID(),
      ownerId,
      projectId,
      type,
      provider: { mastering: this.mastering, enhance: this.enhance, video: this.video }[type].name,
      parameters,
      createdAt: new Date(this.clock.now()),
    });
    const place = await this.slots.admit(ownerId, created._id);
    if (place === null) {
      // Its slot was free but the work queue refused it (NATS away): the job is failed, the request answers 503.
      const stored = await this.jobs.findOwned(ownerId, created._id);
      if (stored?.status === 'failed' && stored.error === NOT_QUEUED) throw new RpcFailure(503, SERVICE_UNAVAILABLE);
    }
    // Answered as created (a worker may already have begun it: its events say so), with its place if it waits.
    return toJobRecord({ ...created, waiting: place !== null }, place ?? undefined);
  }

  /** The owner's project (404), analysed (409), and a custom span that ends within the song (400, the field named). */
  private async checkVideo(ownerId: string, projectId: string, parameters: VideoParameters): Promise<void> {
    const project = await this.media.project(ownerId, projectId);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    if (project.bpm === null) throw new RpcFailure(409, NOT_ANALYSED);
    const song = project.durationSeconds;
    if (parameters.duration !== 'custom') return;
    if ((parameters.customStart ?? 0) >= song) throw new RpcFailure(400, `parameters.customStart: Must be before the song's end (${minutesAndSeconds(song)})`);
    // A hundredth of a second of slack: the panel may round the song's length it shows.
    if ((parameters.customEnd ?? 0) > song + 0.01) throw new RpcFailure(400, `parameters.customEnd: Must be within the song (${minutesAndSeconds(song)})`);
  }
}
