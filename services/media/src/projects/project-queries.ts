import { Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { ObjectLocation, Project, SpotifyFeatures, StemRecord } from '@stemdeck/proto';
import { stemContentType } from '@stemdeck/proto';
import { SeparationJobRepository, toSeparationJob } from '../separation/separation-job.repository';
import { StemRepository, toStem } from '../stems/stem.repository';
import { ProjectRepository, toProject } from './project.repository';
import type { ProjectDocument } from './project.schema';

const NOT_FOUND = 'Project not found';
const STEM_NOT_FOUND = 'Stem not found';

/**
 * Owner-scoped reads (and a project's rename). Another user's project or stem is indistinguishable from a
 * missing one: both are 404. Mixer changes to a stem are UpdateStemUseCase's.
 */
@Injectable()
export class ProjectQueries {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly stems: StemRepository,
    private readonly jobs: SeparationJobRepository,
  ) {}

  /** The owner's projects, newest first, each with its newest job per engine (the library shows their state). */
  async list(ownerId: string): Promise<Project[]> {
    const projects = await this.projects.listOwned(ownerId);
    const jobs = await this.jobs.latestPerEngine(ownerId, projects.map((p) => p._id));
    return projects.map((p) => toProject(p, (jobs.get(p._id) ?? []).map(toSeparationJob)));
  }

  async get(ownerId: string, projectId: string): Promise<Project> {
    const project = await this.owned(ownerId, projectId);
    const jobs = await this.jobs.latestPerEngine(ownerId, [projectId]);
    return toProject(project, (jobs.get(projectId) ?? []).map(toSeparationJob));
  }

  async rename(ownerId: string, projectId: string, name: string): Promise<Project> {
    const project = await this.projects.renameOwned(ownerId, projectId, name);
    if (!project) throw new RpcFailure(404, NOT_FOUND);
    return toProject(project);
  }

  /** The active engine's stems; empty until the first separation has finished. */
  async stemsOf(ownerId: string, projectId: string): Promise<StemRecord[]> {
    const project = await this.owned(ownerId, projectId);
    if (!project.activeEngine) return [];
    return (await this.stems.listOwned(ownerId, projectId, project.activeEngine)).map(toStem);
  }

  async analysisOf(ownerId: string, projectId: string): Promise<{ spotifyFeatures: SpotifyFeatures; loudnessLufs: number }> {
    const project = await this.owned(ownerId, projectId);
    if (!project.analysis) throw new RpcFailure(404, 'This project has no analysis (no audio was uploaded)');
    return project.analysis;
  }

  async audioOf(ownerId: string, projectId: string): Promise<ObjectLocation> {
    const project = await this.owned(ownerId, projectId);
    if (!project.audioKey) throw new RpcFailure(404, 'This project has no audio');
    const extension = project.source === 'video' ? '.flac' : '';
    return { objectKey: project.audioKey, contentType: project.audioContentType ?? 'application/octet-stream', fileName: `${project.name}${extension}` };
  }

  async stemAudioOf(ownerId: string, stemId: string): Promise<ObjectLocation> {
    const stem = await this.stems.findOwned(ownerId, stemId);
    if (!stem) throw new RpcFailure(404, STEM_NOT_FOUND);
    return { objectKey: stem.objectKey, contentType: stemContentType(stem.objectKey), fileName: `${stem.type}${stem.objectKey.slice(stem.objectKey.lastIndexOf('.'))}` };
  }

  private async owned(ownerId: string, projectId: string): Promise<ProjectDocument> {
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project) throw new RpcFailure(404, NOT_FOUND);
    return project;
  }
}
