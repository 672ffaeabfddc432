import { Inject, Injectable } from '@nestjs/common';
import type { CreateProjectBody, Project } from '@stemdeck/proto';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@stemdeck/platform';
import { PROJECT_STORE, type ProjectStore } from './project.ports';
import { toProject } from './project.repository';

/** A project without an upload (POST /api/projects) — a named container for later audio. */
@Injectable()
export class CreateProjectUseCase {
  constructor(
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'create'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(ownerId: string, body: CreateProjectBody): Promise<Project> {
    const doc = await this.projects.create({
      _id: this.ids.randomUUID(),
      ownerId,
      name: body.name,
      originalFile: body.originalFile,
      duration: body.duration,
      bpm: body.bpm ?? null,
      key: body.key ?? null,
      source: 'manual',
      originalKey: null,
      audioKey: null,
      audioContentType: null,
      analysis: null,
      activeEngine: null,
      createdAt: new Date(this.clock.now()),
    });
    return toProject(doc);
  }
}
