import { STEM_VOLUME_MAX_DB, STEM_VOLUME_MIN_DB } from '@stemdeck/proto';

/** A stem's place in the studio's mixer. */
export interface StemMixState {
  volume: number;
  muted: boolean;
  soloed: boolean;
}

/**
 * What a stem contributes to the mix, by the studio's own law: 10^(dB/20) with the volume clamped to the
 * slider's range (not a number → 0 dB); silent when muted, or when others are soloed and it is not.
 */
export function stemGain(stem: StemMixState, anySoloed: boolean): number {
  if (stem.muted || (anySoloed && !stem.soloed)) return 0;
  const db = Number.isFinite(stem.volume) ? Math.min(STEM_VOLUME_MAX_DB, Math.max(STEM_VOLUME_MIN_DB, stem.volume)) : 0;
  return 10 ** (db / 20);
}
