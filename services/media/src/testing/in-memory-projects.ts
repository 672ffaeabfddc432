import type { EngineName } from '@stemdeck/proto';
import type { ProjectDocument } from '../projects/project.schema';
import type { SeparationProjects } from '../separation/separation.ports';

export type StoredProject = Pick<ProjectDocument, '_id' | 'ownerId' | 'audioKey' | 'duration' | 'activeEngine'>;

/** Projects in a map, owner-scoped like the repository: someone else's project is absent. */
export class InMemoryProjects implements SeparationProjects {
  readonly stored = new Map<string, StoredProject>();

  add(project: Partial<StoredProject> & Pick<StoredProject, '_id' | 'ownerId'>): StoredProject {
    const stored = { audioKey: null, duration: 0, activeEngine: null, ...project };
    this.stored.set(stored._id, stored);
    return stored;
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
