import type { StemRecord, StemType, StemVersion } from '@stemdeck/proto';
import type { MasteringResult, MasteringResults, ProjectFacts, ProjectReads } from '../exports.ports';

/**
 * Projects per owner with their stems and completed masters, as media and jobs answer them (a project of
 * another owner is absent). A stem's objects: `stems/<id>.flac`, its enhanced version `enhanced/<id>.flac`,
 * and the played one is the enhanced when the stem's `version` says so; a master's output `masters/<job>/<name>`.
 */
export class FakePeers implements ProjectReads, MasteringResults {
  private readonly projects = new Map<string, { facts: ProjectFacts; stems: StemRecord[]; masters: MasteringResult[] }>();
  readonly stemObjectsAsked: Array<{ stemId: string; version?: StemVersion }> = [];
  mastersRead = 0;

  add(ownerId: string, facts: Partial<ProjectFacts> & { id: string }, stems: StemRecord[] = [], masters: MasteringResult[] = []): void {
    this.projects.set(`${ownerId}/${facts.id}`, { facts: { name: 'Song', bpm: 120, key: 'A minor', ...facts }, stems, masters });
  }

  async project(ownerId: string, projectId: string): Promise<ProjectFacts | null> {
    return this.projects.get(`${ownerId}/${projectId}`)?.facts ?? null;
  }

  async stems(ownerId: string, projectId: string): Promise<StemRecord[]> {
    return this.projects.get(`${ownerId}/${projectId}`)?.stems ?? [];
  }

  async stemObject(ownerId: string, stemId: string, version?: StemVersion): Promise<string> {
    this.stemObjectsAsked.push({ stemId, ...(version ? { version } : {}) });
    const stem = [...this.projects.entries()].filter(([key]) => key.startsWith(`${ownerId}/`)).flatMap(([, project]) => project.stems).find((candidate) => candidate.id === stemId);
    if (!stem) throw new Error(`stem ${stemId} is not ${ownerId}'s`);
    const played = version ?? stem.version;
    if (played === 'enhanced' && !stem.enhanced) throw new Error(`stem ${stemId} has no enhanced version`);
    return played === 'enhanced' ? `enhanced/${stemId}.flac` : `stems/${stemId}.flac`;
  }

  async completedMasters(ownerId: string, projectId: string): Promise<MasteringResult[]> {
    this.mastersRead += 1;
    return this.projects.get(`${ownerId}/${projectId}`)?.masters ?? [];
  }

  async outputObject(_ownerId: string, jobId: string, name: string): Promise<string> {
    return `masters/${jobId}/${name}`;
  }
}

/** A project's stems (one per type asked, all four by default) at 0 dB, unmuted, unsoloed, original, with `changes` per type. */
export function stemsOf(projectId: string, changes: Partial<Record<StemType, Partial<StemRecord>>> = {}, types: StemType[] = ['vocals', 'drums', 'bass', 'other']): StemRecord[] {
  return types.map((type) => ({
    id: `${projectId}-${type}`,
    projectId,
    type,
    engine: 'fast',
    volume: 0,
    muted: false,
    soloed: false,
    quality: 'fast',
    version: 'original',
    enhanced: null,
    ...changes[type],
  }));
}

export const ENHANCED = { jobId: 'enhance-1', createdAt: '2026-01-01T00:00:00.000Z' };
/** A completed full-mix master, per-stem master (of `types`) and stem-groups master. */
export const fullMixMaster = (jobId: string): MasteringResult => ({ jobId, outputs: ['master.flac'] });
export const perStemMaster = (jobId: string, types: StemType[] = ['vocals', 'drums', 'bass', 'other']): MasteringResult => ({ jobId, outputs: [...types.map((type) => `${type}.flac`), 'mix.flac'] });
export const stemGroupsMaster = (jobId: string): MasteringResult => ({ jobId, outputs: ['rhythm.flac', 'melodic.flac', 'mix.flac'] });
