import type { EngineName } from '@stemdeck/proto';
import type { ProjectDocument } from '../projects/project.schema';
import type { SeparationProjects } from '../separation/separation.ports';
import type { ProjectCreation } from '../uploads/ingest.ports';

export type StoredProject = ProjectDocument;

/** Projects in a map, owner-scoped like the repository: someone else's project is absent. */
export class InMemoryProjects implements SeparationProjects, ProjectCreation {
  readonly stored = new Map<string, StoredProject>();

  /** A project as if an upload had created it (an audio upload already analysed, unless told otherwise). */
  add(project: Partial<StoredProject> & Pick<StoredProject, '_id' | 'ownerId'>): StoredProject {
    const stored: StoredProject = {
      name: 'song',
      originalFile: 'song.wav',
      duration: 0,
      bpm: 120,
      key: 'C major',
      source: 'audio',
      originalKey: null,
      audioKey: null,
      audioContentType: 'audio/wav',
      analysis: { loudnessLufs: -14, spotifyFeatures: {} as NonNullable<ProjectDocument['analysis']>['spotifyFeatures'] },
      activeEngine: null,
      createdAt: new Date(0),
      ...project,
    };
    this.stored.set(stored._id, stored);
    return stored;
  }

  async create(project: ProjectDocument): Promise<ProjectDocument> {
    if (this.stored.has(project._id)) throw new Error(`duplicate key ${project._id}`);
    this.stored.set(project._id, { ...project });
    return project;
  }

  async setAudioKey(ownerId: string, projectId: string, audioKey: string): Promise<ProjectDocument | null> {
    const project = this.stored.get(projectId);
    if (project?.ownerId !== ownerId) return null;
    project.audioKey = audioKey;
    return { ...project };
  }

  async setAnalysis(ownerId: string, projectId: string, fields: Pick<ProjectDocument, 'duration' | 'bpm' | 'key' | 'analysis'>): Promise<ProjectDocument | null> {
    const project = this.stored.get(projectId);
    if (project?.ownerId !== ownerId) return null;
    Object.assign(project, fields);
    return { ...project };
  }

  delete(projectId: string): void {
    this.stored.delete(projectId);
  }

  async findOwned(ownerId: string, projectId: string): Promise<StoredProject | null> {
    const project = this.stored.get(projectId);
    return project && project.ownerId === ownerId ? { ...project } : null;
  }

  async setActiveEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void> {
    const project = this.stored.get(projectId);
    if (project?.ownerId === ownerId) project.activeEngine = engine;
  }
}
