import { STEM_VOLUME_MAX_DB, STEM_VOLUME_MIN_DB } from '@stemdeck/proto';

/** A stem's place in the mixer: volume in dB, mute and solo. */
export interface StemMixState {
  volume: number;
  muted: boolean;
  soloed: boolean;
}

/**
 * The linear gain a stem sounds at in the studio's mix, by the same law the browser's playback graph applies:
 * the volume clamped to the slider's range (not a number → 0 dB), gain = 10^(dB/20); silent when muted, or when
 * any stem is soloed and this one is not. The export mix and the studio's player must agree on every stem, so
 * the two implementations are held together by the export-mix-render e2e spec (an OfflineAudioContext render
 * of the studio's graph against an exported mix).
 */
export function stemMixGain(stem: StemMixState, anySoloed: boolean): number {
  if (stem.muted || (anySoloed && !stem.soloed)) return 0;
  const db = Math.min(STEM_VOLUME_MAX_DB, Math.max(STEM_VOLUME_MIN_DB, Number.isFinite(stem.volume) ? stem.volume : 0));
  return 10 ** (db / 20);
}

/** Every stem's gain in the mix, in the order given. */
export function mixGains(stems: readonly StemMixState[]): number[] {
  const anySoloed = stems.some((stem) => stem.soloed);
  return stems.map((stem) => stemMixGain(stem, anySoloed));
}
