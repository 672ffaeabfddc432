/** A stem's place in the mix: volume in dB (−60…+12), mute and solo. */
export interface StemMix {
  volume: number;
  muted: boolean;
  soloed: boolean;
}

export const VOLUME_MIN_DB = -60;
export const VOLUME_MAX_DB = 12;
export const VOLUME_STEP_DB = 0.1;

export const clampVolume = (db: number): number => Math.min(VOLUME_MAX_DB, Math.max(VOLUME_MIN_DB, Number.isFinite(db) ? db : 0));

/** gain = 10^(dB/20), the volume clamped to the slider's range first. */
export const dbToGain = (db: number): number => 10 ** (clampVolume(db) / 20);

/** What a stem contributes to the mix: silent when muted, or when others are soloed and it is not. */
export function effectiveGain(stem: StemMix, anySoloed: boolean): number {
  if (stem.muted || (anySoloed && !stem.soloed)) return 0;
  return dbToGain(stem.volume);
}
