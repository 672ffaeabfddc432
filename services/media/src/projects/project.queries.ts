import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { ObjectLocation, Project, SpotifyFeatures } from '@stemdeck/proto';
import { toSeparationJob } from '../separation/separation-job.repository';
import type { SeparationJobDocument } from '../separation/separation-job.schema';
import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { PROJECT_JOBS, PROJECT_STORE, type ProjectJobs, type ProjectStore } from './project.ports';
import { PROJECT_NOT_FOUND, PROJECT_READ_KEYS, toProject } from './project.repository';
import type { ProjectDocument } from './project.schema';

/**
 * The owner's project reads (nothing here changes anything); another user's project is 404, as a missing one.
 * Answers are kept in the owner's `projects` read cache until a project or job of theirs changes.
 */
@Injectable()
export class ProjectQueries {
  constructor(
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'findOwned' | 'listOwned'>,
    @Inject(PROJECT_JOBS) private readonly jobs: Pick<ProjectJobs, 'latestPerEngine' | 'waitingIds'>,
    private readonly cache: OwnerReadCache,
  ) {}

  /** The owner's projects, newest first, each with its newest job per engine (the library shows their state). */
  list(ownerId: string): Promise<Project[]> {
    return this.cache.read(ownerId, 'projects', PROJECT_READ_KEYS.list, () => this.load(ownerId));
  }

  get(ownerId: string, projectId: string): Promise<Project> {
    return this.cache.read(ownerId, 'projects', PROJECT_READ_KEYS.project(projectId), () => this.loadOne(ownerId, projectId));
  }

  private async load(ownerId: string): Promise<Project[]> {
    const projects = await this.projects.listOwned(ownerId);
    const jobs = await this.jobs.latestPerEngine(ownerId, projects.map((p) => p._id));
    const shown = await this.withPlaces(ownerId, jobs);
    return projects.map((p) => toProject(p, shown(p._id)));
  }

  private async loadOne(ownerId: string, projectId: string): Promise<Project> {
    const project = await this.owned(ownerId, projectId);
    const jobs = await this.jobs.latestPerEngine(ownerId, [projectId]);
    return toProject(project, (await this.withPlaces(ownerId, jobs))(projectId));
  }

  /** Each project's jobs as clients see them, a waiting one with its place in the owner's line. */
  private async withPlaces(ownerId: string, jobs: Map<string, SeparationJobDocument[]>): Promise<(projectId: string) => ReturnType<typeof toSeparationJob>[]> {
    const anyWaiting = [...jobs.values()].some((list) => list.some((job) => job.waiting && job.status === 'queued'));
    const line = anyWaiting ? await this.jobs.waitingIds(ownerId) : [];
    return (projectId) => (jobs.get(projectId) ?? []).map((job) => toSeparationJob(job, line.indexOf(job._id) + 1 || undefined));
  }

  async analysisOf(ownerId: string, projectId: string): Promise<{ spotifyFeatures: SpotifyFeatures; loudnessLufs: number }> {
    const project = await this.owned(ownerId, projectId);
    if (!project.analysis) throw new RpcFailure(404, 'This project has no analysis (no audio was uploaded)');
    return project.analysis;
  }

  async audioOf(ownerId: string, projectId: string): Promise<ObjectLocation> {
    const project = await this.owned(ownerId, projectId);
    if (!project.audioKey && project.source === 'video') throw new RpcFailure(409, 'The audio is still being extracted from the video');
    if (!project.audioKey) throw new RpcFailure(404, 'This project has no audio');
    const extension = project.source === 'video' ? '.flac' : '';
    return { objectKey: project.audioKey, contentType: project.audioContentType ?? 'application/octet-stream', fileName: `${project.name}${extension}` };
  }

  private async owned(ownerId: string, projectId: string): Promise<ProjectDocument> {
    const project = await this.cache.read(ownerId, 'projects', PROJECT_READ_KEYS.document(projectId), () => this.projects.findOwned(ownerId, projectId));
    if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    return project;
  }
}
