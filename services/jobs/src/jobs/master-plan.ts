import type { MasterType } from '@stemdeck/proto';
import type { ProjectStem } from './jobs.ports';

/** One mastered output of a job: its file name and the stems mixed (at their saved gains) into it. */
export interface PlannedPart {
  name: string;
  stems: ProjectStem[];
}

/** What a job writes: the parts each mastered on their own, and whether their sum is written (and brought to target) too. */
export interface MasterPlan {
  parts: PlannedPart[];
  /** The name of the sum of the mastered parts (per-stem and stem-groups), absent for full-mix. */
  sum?: string;
}

export const MASTER_OUTPUT = 'master.flac';
export const SUM_OUTPUT = 'mix.flac';
export const STEM_GROUPS = [
  { name: 'rhythm.flac', types: ['drums', 'bass'] },
  { name: 'melodic.flac', types: ['vocals', 'other'] },
] as const;

/** The stems that sound in the saved mix, as the mixer plays them: muted ones never, and only soloed ones while any is soloed. */
export function soundingStems(stems: ProjectStem[]): ProjectStem[] {
  const anySoloed = stems.some((stem) => stem.soloed);
  return stems.filter((stem) => !stem.muted && (!anySoloed || stem.soloed));
}

/**
 * The outputs of a master: full-mix one master of the sounding stems; per-stem each sounding stem
 * (`vocals.flac`, …) plus their sum; stem-groups rhythm (drums+bass) and melodic (vocals+other) of the
 * sounding stems plus their sum. Stems the mixer silences (muted, or unsoloed while any is soloed) are left
 * out, and a group with no sounding stem writes no file. An empty plan means nothing to master.
 */
export function masterPlan(masterType: MasterType, stems: ProjectStem[]): MasterPlan {
  const sounding = soundingStems(stems);
  if (sounding.length === 0) return { parts: [] };
  if (masterType === 'full-mix') return { parts: [{ name: MASTER_OUTPUT, stems: sounding }] };
  if (masterType === 'per-stem') return { parts: sounding.map((stem) => ({ name: `${stem.type}.flac`, stems: [stem] })), sum: SUM_OUTPUT };
  const parts = STEM_GROUPS.map((group) => ({ name: group.name, stems: sounding.filter((stem) => (group.types as readonly string[]).includes(stem.type)) })).filter(
    (part) => part.stems.length > 0,
  );
  return { parts, sum: SUM_OUTPUT };
}
