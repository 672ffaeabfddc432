import type { EngineName } from '@stemdeck/proto';
import type { ProjectDocument } from '../projects/project.schema';
import type { SeparationProjects } from '../separation/separation.ports';
import { InMemoryProjectStore } from './in-memory-project-store';

export type StoredProject = ProjectDocument;

/**
 * The project store with the changes separations make (active engine, extracted audio, analysis). `add`
 * gives an audio upload already analysed unless told otherwise, so a job does not analyse it again.
 */
export class InMemoryProjects extends InMemoryProjectStore implements SeparationProjects {
  override add(project: Partial<StoredProject> & Pick<StoredProject, '_id' | 'ownerId'>): StoredProject {
    return super.add({
      bpm: 120,
      key: 'C major',
      source: 'audio',
      audioContentType: 'audio/wav',
      duration: 0,
      analysis: { loudnessLufs: -14, spotifyFeatures: {} as NonNullable<ProjectDocument['analysis']>['spotifyFeatures'] },
      ...project,
    });
  }

  delete(projectId: string): void {
    this.stored.delete(projectId);
  }

  async setActiveEngine(ownerId: string, projectId: string, engine: EngineName): Promise<void> {
    await this.change(ownerId, projectId, { activeEngine: engine });
  }

  setAudioKey(ownerId: string, projectId: string, audioKey: string): Promise<ProjectDocument | null> {
    return this.change(ownerId, projectId, { audioKey });
  }

  setAnalysis(ownerId: string, projectId: string, fields: Pick<ProjectDocument, 'duration' | 'bpm' | 'key' | 'analysis'>): Promise<ProjectDocument | null> {
    return this.change(ownerId, projectId, fields);
  }

  private async change(ownerId: string, projectId: string, fields: Partial<ProjectDocument>): Promise<ProjectDocument | null> {
    const project = this.stored.get(projectId);
    if (project?.ownerId !== ownerId) return null;
    Object.assign(project, fields);
    return { ...project };
  }
}
