import { Inject, Injectable } from '@nestjs/common';
import { ID_GENERATOR, type IdGenerator, RpcFailure, SERVICE_UNAVAILABLE } from '@stemdeck/platform';
import type { RequestSeparationRequest, SeparationJob } from '@stemdeck/proto';
import { PROJECT_NOT_FOUND } from '../projects/project.repository';
import { toStem } from '../stems/stem.repository';
import { toSeparationJob } from './separation-job.repository';
import { NOT_QUEUED_REASON, SEPARATION_SLOTS, type SeparationSlotsPort } from './separation-slots';
import {
  SEPARATION_ENGINES,
  SEPARATION_EVENTS,
  SEPARATION_JOBS,
  SEPARATION_PROJECTS,
  SEPARATION_STEMS,
  type SeparationEngines,
  type SeparationEvents,
  type SeparationJobs,
  type SeparationProjects,
  type SeparationStems,
} from './separation.ports';

/**
 * Asks for a project's stems from one engine. A job already queued or running for that engine is
 * returned as is; finished stems are made the active set at once; otherwise a job is made, and it is
 * handed to the durable queue at once when its owner has a free separation slot, or waits its turn (the
 * answer says its place in the owner's line).
 */
@Injectable()
export class RequestSeparationUseCase {
  constructor(
    @Inject(SEPARATION_PROJECTS) private readonly projects: SeparationProjects,
    @Inject(SEPARATION_STEMS) private readonly stems: Pick<SeparationStems, 'listOwned'>,
    @Inject(SEPARATION_JOBS) private readonly jobs: Pick<SeparationJobs, 'findLive' | 'findOwned' | 'create'>,
    @Inject(SEPARATION_ENGINES) private readonly engines: Pick<SeparationEngines, 'get'>,
    @Inject(SEPARATION_SLOTS) private readonly slots: Pick<SeparationSlotsPort, 'admit' | 'places'>,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ ownerId, projectId, engine }: RequestSeparationRequest): Promise<SeparationJob> {
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    // A video's audio track is extracted by its job, so a video has audio to separate before that.
    if (!project.audioKey && project.source !== 'video') throw new RpcFailure(409, 'This project has no audio to separate');
    this.engines.get(engine);

    const existing = await this.jobs.findLive(ownerId, projectId, engine);
    if (existing?.status === 'completed') {
      await this.projects.setActiveEngine(ownerId, projectId, engine);
      const stems = (await this.stems.listOwned(ownerId, projectId, engine)).map(toStem);
      this.events.publish({ type: 'stems_ready', ownerId, projectId, engine, stems });
      return toSeparationJob(existing);
    }
    if (existing) return toSeparationJob(existing, existing.waiting ? (await this.slots.places(ownerId)).get(existing._id) : undefined);

    const created = await this.jobs.create({ _id: this.ids.randomUUID(), ownerId, projectId, engine });
    const place = await this.slots.admit(ownerId, created._id);
    // Its slot was free but the work queue refused it (NATS away): the job is failed, the request answers 503.
    // (A job a worker has already taken and failed is not this: its own failure reaches the owner as an event.)
    if (place === null && (await this.jobs.findOwned(ownerId, created._id))?.error === NOT_QUEUED_REASON) throw new RpcFailure(503, SERVICE_UNAVAILABLE);
    // Answered as queued (a worker may already have begun it: its events say so), with its place if it waits.
    return toSeparationJob({ ...created, waiting: place !== null }, place ?? undefined);
  }
}
