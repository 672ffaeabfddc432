import type { Vowel } from '../parts/melody';
import type { FormantSet } from './formants';

/**
 * A singer for the formant synthesizer: vocal-tract resonances and singing habits. The
 * development set's singer is built into singer.ts; these are the held-out set's singers,
 * chosen to differ from it on every axis (other formant tables, bandwidths, vibrato,
 * breathiness, glottal brightness, register).
 */
export interface VoiceCharacter {
  name: string;
  /** F1..F5 per vowel (Hz); null = the development tables for the melody's voice type. */
  vowels: Record<Vowel, FormantSet> | null;
  bandwidths: FormantSet;
  /** Scales the closed-mouth murmur formants (m, n, l, d). */
  murmurScale: number;
  /** Per-track ranges the singer's settings are drawn from. */
  vibratoCents: [number, number];
  vibratoHz: [number, number];
  /** Seconds after a note's onset before the vibrato starts to bloom. */
  vibratoOnsetSeconds: number;
  /** Glottal closing phase (fraction of a period): shorter = brighter, more pressed. */
  closing: [number, number];
  breathiness: [number, number];
  /** Per-period pitch and amplitude wobble (±fraction). */
  jitter: number;
  shimmer: number;
  /** Slow pitch drift (±cents). */
  driftCents: number;
  /** How far below the note the onset scoops from (semitones). */
  scoopSemitones: number;
  presenceGain: number;
  highBranchGain: number;
  /** Centre of the melody's range (MIDI note); the development singer sings around 53 or 62. */
  rangeCentre: number;
}

/**
 * Formant tables from Hillenbrand et al. (1995) averages (F1–F3) — a different survey than the
 * development tables (Peterson & Barney) — scaled per singer, with their own F4/F5.
 */
function hillenbrand(kind: 'men' | 'women', scale: number, f4: number, f5: number): Record<Vowel, FormantSet> {
  const f13: Record<'men' | 'women', Record<Vowel, [number, number, number]>> = {
    men: { a: [768, 1333, 2522], e: [580, 1799, 2605], i: [342, 2322, 3000], o: [497, 910, 2459], u: [378, 997, 2343] },
    women: { a: [936, 1551, 2815], e: [731, 2058, 2979], i: [437, 2761, 3372], o: [555, 1035, 2828], u: [459, 1105, 2735] },
  };
  const table = {} as Record<Vowel, FormantSet>;
  for (const [vowel, [f1, f2, f3]] of Object.entries(f13[kind]) as [Vowel, [number, number, number]][]) {
    table[vowel] = [f1 * scale, f2 * scale, f3 * scale, f4, f5];
  }
  return table;
}

export const HELDOUT_SINGERS: readonly VoiceCharacter[] = [
  {
    // Low, dark, nearly straight tone, breathy: a crooner.
    name: 'baritone-crooner',
    vowels: hillenbrand('men', 0.94, 3150, 4050),
    bandwidths: [120, 140, 190, 250, 320],
    murmurScale: 0.94,
    vibratoCents: [10, 18],
    vibratoHz: [4.4, 4.9],
    vibratoOnsetSeconds: 0.3,
    closing: [0.26, 0.32],
    breathiness: [0.11, 0.16],
    jitter: 0.008,
    shimmer: 0.09,
    driftCents: 18,
    scoopSemitones: 0.9,
    presenceGain: 0.8,
    highBranchGain: 0.2,
    rangeCentre: 48,
  },
  {
    // High, bright, pressed tenor with a fast, wide vibrato.
    name: 'bright-tenor',
    vowels: hillenbrand('men', 1.06, 3600, 4600),
    bandwidths: [70, 90, 120, 170, 220],
    murmurScale: 1.06,
    vibratoCents: [50, 70],
    vibratoHz: [6.1, 6.7],
    vibratoOnsetSeconds: 0.1,
    closing: [0.1, 0.14],
    breathiness: [0.015, 0.03],
    jitter: 0.003,
    shimmer: 0.04,
    driftCents: 6,
    scoopSemitones: 0.2,
    presenceGain: 2.2,
    highBranchGain: 0.5,
    rangeCentre: 58,
  },
  {
    // Soprano, airy, slow vibrato that blooms late.
    name: 'airy-soprano',
    vowels: hillenbrand('women', 1.05, 4300, 5200),
    bandwidths: [110, 130, 180, 240, 300],
    murmurScale: 1.2,
    vibratoCents: [35, 55],
    vibratoHz: [4.6, 5.1],
    vibratoOnsetSeconds: 0.35,
    closing: [0.24, 0.3],
    breathiness: [0.12, 0.18],
    jitter: 0.006,
    shimmer: 0.08,
    driftCents: 10,
    scoopSemitones: 0.6,
    presenceGain: 1.1,
    highBranchGain: 0.45,
    rangeCentre: 67,
  },
  {
    // Alto belter: darker female tract, little breath, wide vibrato.
    name: 'alto-belter',
    vowels: hillenbrand('women', 0.95, 3850, 4700),
    bandwidths: [80, 100, 140, 190, 250],
    murmurScale: 1.05,
    vibratoCents: [55, 80],
    vibratoHz: [5.9, 6.4],
    vibratoOnsetSeconds: 0.22,
    closing: [0.12, 0.15],
    breathiness: [0.02, 0.04],
    jitter: 0.004,
    shimmer: 0.05,
    driftCents: 8,
    scoopSemitones: 0.5,
    presenceGain: 2,
    highBranchGain: 0.3,
    rangeCentre: 57,
  },
];
