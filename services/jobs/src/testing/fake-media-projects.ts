import type { StemVersion } from '@stemdeck/proto';
import type { EnhancedStemObject, MediaProjects, ProjectFacts, ProjectStem } from '../jobs/jobs.ports';

export interface AttachCall {
  ownerId: string;
  projectId: string;
  jobId: string;
  stems: EnhancedStemObject[];
}

/**
 * Projects per owner with their active stems (an empty list: not separated yet). A stem's `objectKey` is its
 * original; once an enhanced version is attached the stem plays that one (as media does), unless asked for a version.
 */
export class FakeMediaProjects implements MediaProjects {
  private readonly projects = new Map<string, ProjectStem[]>();
  private readonly enhanced = new Map<string, string>();
  private readonly facts = new Map<string, ProjectFacts>();
  readonly versionsAsked: Array<StemVersion | undefined> = [];
  readonly attached: AttachCall[] = [];
  /** Called as media is asked to attach (a test can cancel the job or delete the project there). */
  onAttach?: (call: AttachCall) => Promise<void> | void;

  /** `facts`: the project's name, analysed length and tempo (a 3-minute song at 120 BPM unless given). */
  add(ownerId: string, projectId: string, stems: ProjectStem[] = [], facts: Partial<ProjectFacts> = {}): void {
    this.projects.set(`${ownerId}/${projectId}`, stems);
    this.facts.set(`${ownerId}/${projectId}`, { name: 'Song', durationSeconds: 180, bpm: 120, ...facts });
  }

  remove(ownerId: string, projectId: string): void {
    this.projects.delete(`${ownerId}/${projectId}`);
  }

  async exists(ownerId: string, projectId: string): Promise<boolean> {
    return this.projects.has(`${ownerId}/${projectId}`);
  }

  async project(ownerId: string, projectId: string): Promise<ProjectFacts | null> {
    return this.projects.has(`${ownerId}/${projectId}`) ? (this.facts.get(`${ownerId}/${projectId}`) ?? null) : null;
  }

  async activeStems(ownerId: string, projectId: string, version?: StemVersion): Promise<ProjectStem[]> {
    this.versionsAsked.push(version);
    const stems = this.projects.get(`${ownerId}/${projectId}`) ?? [];
    return stems.map((stem) => {
      const enhanced = this.enhanced.get(stem.id);
      return version !== 'original' && enhanced ? { ...stem, objectKey: enhanced } : stem;
    });
  }

  async attachEnhancedStems(ownerId: string, projectId: string, jobId: string, stems: EnhancedStemObject[]): Promise<'attached' | 'absent'> {
    const call = { ownerId, projectId, jobId, stems };
    await this.onAttach?.(call);
    const project = this.projects.get(`${ownerId}/${projectId}`);
    if (!project || stems.some(({ stemId }) => !project.some((stem) => stem.id === stemId))) return 'absent';
    this.attached.push(call);
    for (const { stemId, objectKey } of stems) this.enhanced.set(stemId, objectKey);
    return 'attached';
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
