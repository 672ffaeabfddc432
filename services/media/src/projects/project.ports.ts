import type { SeparationJobDocument } from '../separation/separation-job.schema';
import type { ProjectDocument } from './project.schema';

/*
 * What the project use-cases need from the world, each behind a token (as separation.ports.ts does for the
 * separation use-cases): project.providers binds the tokens to the real repositories and adapters, the unit
 * specs to small in-memory fakes (src/testing). A use-case names the part of a port it uses with Pick<>.
 * The events a project change announces go through SEPARATION_EVENTS (separation.ports.ts): the same need.
 */

/** The owner's project documents: every read and change carries the owner id, so another user's project is absent. */
export interface ProjectStore {
  create(doc: ProjectDocument): Promise<ProjectDocument>;
  findOwned(ownerId: string, projectId: string): Promise<ProjectDocument | null>;
  /** Newest first. */
  listOwned(ownerId: string): Promise<ProjectDocument[]>;
  /** The renamed project, or null when it is missing or someone else's. */
  renameOwned(ownerId: string, projectId: string, name: string): Promise<ProjectDocument | null>;
  deleteOwned(ownerId: string, projectId: string): Promise<void>;
}
export const PROJECT_STORE = Symbol('ProjectStore');

/** A project's separation jobs as the project reads and deletion see them. */
export interface ProjectJobs {
  /** For each of the given projects, its newest job per engine. */
  latestPerEngine(ownerId: string, projectIds: string[]): Promise<Map<string, SeparationJobDocument[]>>;
  /** The owner's jobs waiting for a separation slot, oldest first (their places in line). */
  waitingIds(ownerId: string): Promise<string[]>;
  /** Every job of a project, all engines (the project is being deleted). */
  deleteForProject(ownerId: string, projectId: string): Promise<void>;
}
export const PROJECT_JOBS = Symbol('ProjectJobs');

/** The part of object storage a project's deletion clears: every object under its prefix, open multipart uploads included. */
export interface ProjectStorage {
  listIncompleteUploads(prefix: string): Promise<string[]>;
  discard(key: string): Promise<void>;
  removePrefix(prefix: string): Promise<void>;
}
export const PROJECT_STORAGE = Symbol('ProjectStorage');
