import { STEM_VOLUME_MAX_DB, STEM_VOLUME_MIN_DB } from '@stemdeck/proto/vocabulary';

/** A stem's place in the mix: volume in dB (−60…+12), mute and solo. */
export interface StemMix {
  volume: number;
  muted: boolean;
  soloed: boolean;
}

/** The volume within the slider's range (proto's vocabulary); not a number → 0 dB. */
export const clampVolume = (db: number): number => Math.min(STEM_VOLUME_MAX_DB, Math.max(STEM_VOLUME_MIN_DB, Number.isFinite(db) ? db : 0));

/** gain = 10^(dB/20), the volume clamped to the slider's range first. */
export const dbToGain = (db: number): number => 10 ** (clampVolume(db) / 20);

/** What a stem contributes to the mix: silent when muted, or when others are soloed and it is not. */
export function effectiveGain(stem: StemMix, anySoloed: boolean): number {
  if (stem.muted || (anySoloed && !stem.soloed)) return 0;
  return dbToGain(stem.volume);
}
