import type { LoudnessFigures } from './jobsApi';

/**
 * Gains for a fair A/B: the louder of original and master is turned down by the measured difference of
 * their integrated loudness, so louder does not sound better. Without matching both play as they are.
 */
export function loudnessMatchGains(before: Pick<LoudnessFigures, 'integratedLufs'>, after: Pick<LoudnessFigures, 'integratedLufs'>, match: boolean): { original: number; master: number } {
  const difference = after.integratedLufs - before.integratedLufs;
  if (!match || !Number.isFinite(difference)) return { original: 1, master: 1 };
  return difference > 0 ? { original: 1, master: 10 ** (-difference / 20) } : { original: 10 ** (difference / 20), master: 1 };
}

/** The output the A/B player compares with the original: the sum (per-stem, stem-groups) or the master (full mix). */
export function comparedOutput<T extends { name: string }>(outputs: readonly T[]): T | undefined {
  return outputs.find((output) => output.name === 'mix.flac') ?? outputs.find((output) => output.name === 'master.flac') ?? outputs[0];
}
