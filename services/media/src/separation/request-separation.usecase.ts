import { Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { RequestSeparationRequest, SeparationJob } from '@stemdeck/proto';
import { randomUUID } from 'node:crypto';
import { PROJECT_NOT_FOUND, ProjectRepository } from '../projects/project.repository';
import { StemRepository, toStem } from '../stems/stem.repository';
import { EngineRegistry } from './engine-registry';
import { MediaEventsPublisher } from './media-events.publisher';
import { SeparationJobRepository, toSeparationJob } from './separation-job.repository';
import { SeparationQueue } from './separation-queue';

/**
 * Asks for a project's stems from one engine. A job already queued or running for that engine is
 * returned as is; finished stems are made the active set at once; otherwise a durable job is queued.
 */
@Injectable()
export class RequestSeparationUseCase {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly stems: StemRepository,
    private readonly jobs: SeparationJobRepository,
    private readonly engines: EngineRegistry,
    private readonly queue: SeparationQueue,
    private readonly events: MediaEventsPublisher,
  ) {}

  async execute({ ownerId, projectId, engine }: RequestSeparationRequest): Promise<SeparationJob> {
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    if (!project.audioKey) throw new RpcFailure(409, 'This project has no audio to separate');
    this.engines.get(engine);

    const existing = await this.jobs.findLive(ownerId, projectId, engine);
    if (existing?.status === 'completed') {
      await this.projects.setActiveEngine(ownerId, projectId, engine);
      const stems = (await this.stems.listOwned(ownerId, projectId, engine)).map(toStem);
      this.events.publish({ type: 'stems_ready', ownerId, projectId, engine, stems });
      return toSeparationJob(existing);
    }
    if (existing) return toSeparationJob(existing);

    const job = await this.jobs.create({ _id: randomUUID(), ownerId, projectId, engine });
    try {
      await this.queue.publish(job._id, { jobId: job._id, ownerId, projectId, engine });
    } catch (error) {
      await this.jobs.finish(ownerId, job._id, 'failed', 'could not be queued');
      throw error;
    }
    return toSeparationJob(job);
  }
}
