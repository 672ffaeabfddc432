import type { Chroma } from './chroma';
import { correlation } from './math';

export const PITCH_CLASS_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

/** The 24 key names, majors first: index = pitch class (major) or 12 + pitch class (minor). */
export const KEY_NAMES: readonly string[] = [
  ...PITCH_CLASS_NAMES.map((name) => `${name} major`),
  ...PITCH_CLASS_NAMES.map((name) => `${name} minor`),
];

export interface KeyEstimate {
  /** 0 = C … 11 = B; −1 when there is no tonal content. */
  tonicPitchClass: number;
  /** 1 major, 0 minor (Spotify's convention). */
  mode: 0 | 1;
  name: string;
  /** Correlation of the track's profile with the winning key's, −1..1. */
  strength: number;
}

/**
 * Key by template matching (Krumhansl's method).
 *
 * The track's pitch-class profile is the treble chroma plus BASS_WEIGHT × the bass chroma, each first scaled to
 * sum 1. It is correlated (Pearson) with a major and a minor key profile rotated to each of the 12 tonics; the
 * best of the 24 is the key. Profiles: Temperley's (Kostka–Payne corpus), which weight the tonic triad and
 * penalise non-scale tones more sharply than Krumhansl–Kessler's probe-tone ratings.
 * A profile without a clear winner (nothing tonal, e.g. silence or drums only: best correlation under
 * MIN_KEY_STRENGTH, or no energy) reports pitch class −1 and the name of C major.
 */
export function estimateKey(chroma: Chroma): KeyEstimate {
  const profile = combinedProfile(chroma);
  let best = { tonicPitchClass: -1, mode: 1 as 0 | 1, strength: -Infinity };
  for (const mode of [1, 0] as const) {
    const template = mode === 1 ? MAJOR_PROFILE : MINOR_PROFILE;
    for (let tonic = 0; tonic < 12; tonic++) {
      const strength = correlation(profile, rotate(template, tonic));
      if (strength > best.strength) best = { tonicPitchClass: tonic, mode, strength };
    }
  }
  if (!(best.strength >= MIN_KEY_STRENGTH)) return { tonicPitchClass: -1, mode: 1, name: KEY_NAMES[0], strength: 0 };
  return { ...best, name: KEY_NAMES[(best.mode === 1 ? 0 : 12) + best.tonicPitchClass] };
}

const BASS_WEIGHT = 1;
const MIN_KEY_STRENGTH = 0.2;
const MAJOR_PROFILE = [0.748, 0.06, 0.488, 0.082, 0.67, 0.46, 0.096, 0.715, 0.104, 0.366, 0.057, 0.4];
const MINOR_PROFILE = [0.712, 0.084, 0.474, 0.618, 0.049, 0.46, 0.105, 0.747, 0.404, 0.067, 0.133, 0.33];

function combinedProfile(chroma: Chroma): number[] {
  const bassTotal = sum(chroma.bass);
  const trebleTotal = sum(chroma.treble);
  return Array.from({ length: 12 }, (_, pc) => {
    const treble = trebleTotal > 0 ? chroma.treble[pc] / trebleTotal : 0;
    const bass = bassTotal > 0 ? chroma.bass[pc] / bassTotal : 0;
    return treble + BASS_WEIGHT * bass;
  });
}

/** The profile of the key whose tonic is `tonic`: template[0] moves to pitch class `tonic`. */
function rotate(template: number[], tonic: number): number[] {
  return Array.from({ length: 12 }, (_, pc) => template[(pc - tonic + 12) % 12]);
}

function sum(values: Float64Array): number {
  return values.reduce((total, value) => total + value, 0);
}
