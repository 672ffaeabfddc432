import type { Chroma } from './chroma';
import { correlation, mean } from './math';

const PITCH_CLASS_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

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
  /** Correlation of the track's profile with the winning key's, −1..1 (0 without a key). */
  strength: number;
}

/**
 * Key by template matching (Krumhansl's method): the track's pitch-class profile (chroma.ts, upper harmonics left
 * out) is correlated (Pearson) with a major and a minor key profile rotated to each of the 12 tonics; the best of
 * the 24 is the key.
 *
 * Two profiles, their correlations averaged, so that neither's quirks decide alone:
 * - Krumhansl–Kessler's probe-tone ratings as adjusted by Shaath for popular music, whose minor profile gives the
 *   lowered seventh more weight: pop and rock minor keys use the natural minor (the VII chord) far more than the
 *   harmonic minor that classical-music profiles assume, and with too little ♭7 weight a minor song is read as
 *   its relative major;
 * - Albrecht & Shanahan's (2013) profiles, counted from the durations of pitch classes in a corpus of pieces in
 *   known keys: their near-zero weights on the non-scale tones make a fifth-away key (one accidental apart)
 *   score clearly lower.
 * (Chosen on development material with Krumhansl–Kessler, Temperley and both alone; the pair made the fewest
 * fifth and relative-major/minor errors.)
 *
 * Relative keys (C major / A minor) share their scale, so their scores can tie. When the two best keys are
 * relatives within RELATIVE_TIE of each other, the one whose tonic the bass dwells on more wins: songs start,
 * end and cadence on their tonic chord, whose root the bass plays.
 *
 * Without tonal content the pitch class is −1 and the name that of C major: when under MIN_TONAL_SHARE of the
 * spectral peaks' amplitude is in steady tones (silence, clicks), or when no key profile fits the pitch-class
 * profile by MIN_KEY_STRENGTH (noise fits its best key by ~0.3, a drum kit alone by ~0.5; songs of the development
 * material by 0.69 or more). The steady share alone cannot tell: noise has ~0.17 of it, and so does a fast funk
 * song full of hi-hats and short notes, which a 0.2 threshold once left without a key.
 */
export function estimateKey(chroma: Chroma): KeyEstimate {
  if (chroma.tonalShare < MIN_TONAL_SHARE) return { tonicPitchClass: -1, mode: 1, name: KEY_NAMES[0], strength: 0 };
  const candidates = ([1, 0] as const)
    .flatMap((mode) =>
      Array.from({ length: 12 }, (_, tonic) => ({
        tonicPitchClass: tonic,
        mode,
        strength: mean(PROFILES.map((profiles) => correlation(chroma.profile, rotate(mode === 1 ? profiles.major : profiles.minor, tonic)))),
      })),
    )
    .sort((a, b) => b.strength - a.strength);
  const [first, second] = candidates;
  if (first.strength < MIN_KEY_STRENGTH) return { tonicPitchClass: -1, mode: 1, name: KEY_NAMES[0], strength: 0 };
  const tie = areRelative(first, second) && first.strength - second.strength < RELATIVE_TIE;
  const best = tie && chroma.bass[second.tonicPitchClass] > chroma.bass[first.tonicPitchClass] ? second : first;
  return { ...best, name: KEY_NAMES[(best.mode === 1 ? 0 : 12) + best.tonicPitchClass] };
}

const MIN_TONAL_SHARE = 0.1;
const MIN_KEY_STRENGTH = 0.6;
const RELATIVE_TIE = 0.05;
/** Weights per scale degree from the tonic (C, C#, … B of C major / C minor). */
const PROFILES: { major: number[]; minor: number[] }[] = [
  // Krumhansl–Kessler as adjusted by Shaath.
  { major: [6.6, 2.0, 3.5, 2.3, 4.6, 4.0, 2.5, 5.2, 2.4, 3.7, 2.3, 3.4], minor: [6.5, 2.7, 3.5, 5.4, 2.6, 3.5, 2.5, 5.2, 4.0, 2.7, 4.3, 3.2] },
  // Albrecht & Shanahan.
  {
    major: [0.238, 0.006, 0.111, 0.006, 0.137, 0.094, 0.016, 0.214, 0.009, 0.08, 0.008, 0.081],
    minor: [0.22, 0.006, 0.104, 0.123, 0.019, 0.103, 0.012, 0.214, 0.062, 0.022, 0.061, 0.052],
  },
];

type Candidate = Omit<KeyEstimate, 'name'>;

/** Whether one is the other's relative minor or major (A minor ↔ C major: the minor tonic 3 semitones lower). */
function areRelative(a: Candidate, b: Candidate): boolean {
  if (a.mode === b.mode) return false;
  const [major, minor] = a.mode === 1 ? [a, b] : [b, a];
  return (minor.tonicPitchClass + 3) % 12 === major.tonicPitchClass;
}

/** The profile of the key whose tonic is `tonic`: template[0] moves to pitch class `tonic`. */
function rotate(template: number[], tonic: number): number[] {
  return Array.from({ length: 12 }, (_, pc) => template[(pc - tonic + 12) % 12]);
}
