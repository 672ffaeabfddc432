import { Injectable } from '@nestjs/common';
import type { CreateProjectBody, Project } from '@stemdeck/proto';
import { randomUUID } from 'node:crypto';
import { ProjectRepository, toProject } from './project.repository';

/** A project without an upload (POST /api/projects) — a named container for later audio. */
@Injectable()
export class CreateProjectUseCase {
  constructor(private readonly projects: ProjectRepository) {}

  async execute(ownerId: string, body: CreateProjectBody): Promise<Project> {
    const doc = await this.projects.create({
      _id: randomUUID(),
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
      createdAt: new Date(),
    });
    return toProject(doc);
  }
}
