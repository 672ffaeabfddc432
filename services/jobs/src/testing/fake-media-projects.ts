import type { MediaProjects, ProjectStem } from '../jobs/jobs.ports';

/** Projects per owner with their active stems (an empty list: not separated yet). */
export class FakeMediaProjects implements MediaProjects {
  private readonly projects = new Map<string, ProjectStem[]>();

  add(ownerId: string, projectId: string, stems: ProjectStem[] = []): void {
    this.projects.set(`${ownerId}/${projectId}`, stems);
  }

  remove(ownerId: string, projectId: string): void {
    this.projects.delete(`${ownerId}/${projectId}`);
  }

  async exists(ownerId: string, projectId: string): Promise<boolean> {
    return this.projects.has(`${ownerId}/${projectId}`);
  }

  async activeStems(ownerId: string, projectId: string): Promise<ProjectStem[]> {
    return this.projects.get(`${ownerId}/${projectId}`) ?? [];
  }
}

/** A project's four stems at 0 dB, unmuted, unsoloed, with `changes` per stem type. */
export function fourStems(projectId: string, changes: Partial<Record<ProjectStem['type'], Partial<ProjectStem>>> = {}): ProjectStem[] {
  return (['vocals', 'drums', 'bass', 'other'] as const).map((type) => ({
    id: `${projectId}-fast-${type}`,
    type,
    volume: 0,
    muted: false,
    soloed: false,
    objectKey: `users/o/projects/${projectId}/stems/fast/${type}.flac`,
    ...changes[type],
  }));
}
