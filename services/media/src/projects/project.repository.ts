import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { EngineName, Project, SeparationJob } from '@stemdeck/proto';
import { findOwnedById } from '@stemdeck/platform';
import type { Model } from 'mongoose';
import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { PROJECT_MODEL, ProjectDocument } from './project.schema';

export const toProject = (doc: ProjectDocument, jobs?: SeparationJob[]): Project => ({
  id: doc._id,
  name: doc.name,
  originalFile: doc.originalFile,
  duration: doc.duration,
  bpm: doc.bpm,
  key: doc.key,
  source: doc.source,
  activeEngine: doc.activeEngine,
  createdAt: doc.createdAt.toISOString(),
  ...(jobs ? { jobs } : {}),
});

/** The keys ProjectQueries and StemQueries keep their reads under in the owner's `projects` scope. */
export const PROJECT_READ_KEYS = {
  /** The library: every project with its newest jobs. */
  list: 'list',
  /** One project with its newest jobs, as clients see it. */
  project: (projectId: string) => `project:${projectId}`,
  /** One project's document, as stored (the stem reads check the project through it). */
  document: (projectId: string) => `document:${projectId}`,
} as const;

/** What every project read or change answers (404) for a missing project and for another user's alike. */
export const PROJECT_NOT_FOUND = 'Project not found';

/**
 * Projects are owner-scoped: every query carries the owner id, so another user's project is simply absent.
 * Every change drops the owner's cached project reads once the database has it (OwnerReadCache).
 */
@Injectable()
export class ProjectRepository {
  constructor(
    @InjectModel(PROJECT_MODEL) private readonly projects: Model<ProjectDocument>,
    private readonly cache: OwnerReadCache,
  ) {}

  async create(doc: ProjectDocument): Promise<ProjectDocument> {
    await this.cache.changing(doc.ownerId, 'projects', () => this.projects.create(doc));
    return doc;
  }

  findOwned(ownerId: string, projectId: string): Promise<ProjectDocument | null> {
    return findOwnedById(this.projects, projectId, ownerId);
  }

  listOwned(ownerId: string): Promise<ProjectDocument[]> {
    return this.projects.find({ ownerId }).sort({ createdAt: -1 }).lean<ProjectDocument[]>().exec();
  }

  async setActiveEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void> {
    await this.cache.changing(ownerId, 'projects', () => this.projects.updateOne({ _id: projectId, ownerId }, { $set: { activeEngine: engine } }).exec());
  }

  /** The audio the engines and the player read, once a video's track is extracted. */
  setAudioKey(ownerId: string, projectId: string, audioKey: string): Promise<ProjectDocument | null> {
    return this.cache.changing(ownerId, 'projects', () => this.projects.findOneAndUpdate({ _id: projectId, ownerId }, { $set: { audioKey } }, { new: true }).lean<ProjectDocument>().exec());
  }

  /** The analysis of the whole recording (and its decoded length), once the ingest job has it. */
  setAnalysis(ownerId: string, projectId: string, fields: Pick<ProjectDocument, 'duration' | 'bpm' | 'key' | 'analysis'>): Promise<ProjectDocument | null> {
    return this.cache.changing(ownerId, 'projects', () => this.projects.findOneAndUpdate({ _id: projectId, ownerId }, { $set: fields }, { new: true }).lean<ProjectDocument>().exec());
  }

  renameOwned(ownerId: string, projectId: string, name: string): Promise<ProjectDocument | null> {
    return this.cache.changing(ownerId, 'projects', () => this.projects.findOneAndUpdate({ _id: projectId, ownerId }, { $set: { name } }, { new: true }).lean<ProjectDocument>().exec());
  }

  async deleteOwned(ownerId: string, projectId: string): Promise<void> {
    await this.cache.changing(ownerId, 'projects', () => this.projects.deleteOne({ _id: projectId, ownerId }).exec());
  }
}
