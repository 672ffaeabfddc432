import { ENHANCEMENTS, STEM_TYPES, type Enhancement, type StemType } from '@stemdeck/proto/vocabulary';
import type { EnhanceParameters, Job, LoudnessFigures } from './jobsApi';

/** What an enhancement does, said plainly (the toggles' labels). */
export const ENHANCEMENT_NAMES: Record<Enhancement, string> = {
  noiseReduction: 'Noise reduction',
  loudnessNormalization: 'Loudness normalization',
  speechEnhancement: 'Speech enhancement',
};

export const STEM_NAMES: Record<StemType, string> = { vocals: 'Vocals', drums: 'Drums', bass: 'Bass', other: 'Other' };

/** Noise reduction on the vocals: the commonest cleanup, and a quick one. */
export const DEFAULT_ENHANCE: EnhanceParameters = {
  enhancements: { noiseReduction: true, loudnessNormalization: false, speechEnhancement: false },
  targetStems: { vocals: true, drums: false, bass: false, other: false },
};

export const NO_ENHANCEMENT = 'Choose at least one enhancement.';
export const NO_TARGET_STEM = 'Choose at least one stem to enhance.';

/** Why these settings cannot be sent (the server needs at least one enhancement and one stem), or null. */
export function enhanceChoiceProblem(parameters: EnhanceParameters): string | null {
  if (!ENHANCEMENTS.some((name) => parameters.enhancements[name])) return NO_ENHANCEMENT;
  if (!STEM_TYPES.some((type) => parameters.targetStems[type])) return NO_TARGET_STEM;
  return null;
}

/** One enhanced stem of a finished job: where to download it and its loudness before and after. */
export interface EnhancedOutput {
  name: string;
  url: string;
  stemType: StemType;
  before: LoudnessFigures | null;
  after: LoudnessFigures | null;
}

/** A finished enhance job's stems, in the mixer's order (vocals, drums, bass, other). */
export function enhancedOutputs(job: Pick<Job, 'result'>): EnhancedOutput[] {
  const outputs = (job.result?.outputs ?? []).flatMap((output) =>
    output.stemType ? [{ name: output.name, url: output.url, stemType: output.stemType, before: output.before ?? null, after: output.after ?? null }] : [],
  );
  return outputs.sort((a, b) => STEM_TYPES.indexOf(a.stemType) - STEM_TYPES.indexOf(b.stemType));
}
