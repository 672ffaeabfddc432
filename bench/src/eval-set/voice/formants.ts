import type { Consonant, Vowel, VoiceType } from '../parts/melody';

/** Formant centre frequencies F1..F5 in Hz (Peterson & Barney averages, F4/F5 typical values). */
export type FormantSet = [number, number, number, number, number];

const VOWEL_FORMANTS: Record<VoiceType, Record<Vowel, FormantSet>> = {
  male: {
    a: [730, 1090, 2440, 3400, 4200],
    e: [530, 1840, 2480, 3400, 4200],
    i: [270, 2290, 3010, 3500, 4200],
    o: [570, 840, 2410, 3400, 4200],
    u: [300, 870, 2240, 3400, 4200],
  },
  female: {
    a: [850, 1220, 2810, 4000, 4900],
    e: [610, 2330, 2990, 4000, 4900],
    i: [310, 2790, 3310, 4100, 4900],
    o: [590, 920, 2710, 4000, 4900],
    u: [370, 950, 2670, 4000, 4900],
  },
};

/** Voiced consonants are sung as a closed-mouth murmur with these formants. */
const MURMUR_FORMANTS: Partial<Record<Consonant, FormantSet>> = {
  m: [280, 1000, 2300, 3400, 4200],
  n: [280, 1600, 2600, 3400, 4200],
  l: [360, 1050, 2700, 3400, 4200],
  d: [300, 1700, 2600, 3400, 4200],
};

export const FORMANT_BANDWIDTHS: FormantSet = [90, 110, 150, 200, 260];

export function vowelFormants(voice: VoiceType, vowel: Vowel): FormantSet {
  return VOWEL_FORMANTS[voice][vowel];
}

/** `scale` follows the vocal tract: 1 for the male tables, 1.12 for the female ones. */
export function murmurFormants(consonant: Consonant, scale: number): FormantSet | null {
  const f = MURMUR_FORMANTS[consonant];
  if (!f) return null;
  return f.map((x) => x * scale) as FormantSet;
}

/** Noise part of a consonant: band-pass centre/bandwidth, level, and how long it lasts. */
export interface NoiseShape {
  centreHz: number;
  bandwidthHz: number;
  level: number;
  seconds: number;
  /** Plosives: a short burst at the start, then quieter aspiration. */
  burst: boolean;
  /** Murmured consonants keep the voice sounding at this relative level. */
  voicing: number;
}

export const CONSONANT_NOISE: Record<Consonant, NoiseShape> = {
  s: { centreHz: 7000, bandwidthHz: 3500, level: 0.22, seconds: 0.09, burst: false, voicing: 0 },
  sh: { centreHz: 3200, bandwidthHz: 1800, level: 0.2, seconds: 0.085, burst: false, voicing: 0 },
  f: { centreHz: 5500, bandwidthHz: 6000, level: 0.07, seconds: 0.07, burst: false, voicing: 0 },
  h: { centreHz: 1500, bandwidthHz: 2500, level: 0.06, seconds: 0.06, burst: false, voicing: 0 },
  t: { centreHz: 4500, bandwidthHz: 3000, level: 0.28, seconds: 0.035, burst: true, voicing: 0 },
  k: { centreHz: 2200, bandwidthHz: 1200, level: 0.25, seconds: 0.045, burst: true, voicing: 0 },
  p: { centreHz: 1100, bandwidthHz: 1500, level: 0.22, seconds: 0.03, burst: true, voicing: 0 },
  d: { centreHz: 4000, bandwidthHz: 3000, level: 0.1, seconds: 0.03, burst: true, voicing: 0.3 },
  m: { centreHz: 300, bandwidthHz: 200, level: 0, seconds: 0.07, burst: false, voicing: 0.45 },
  n: { centreHz: 300, bandwidthHz: 200, level: 0, seconds: 0.06, burst: false, voicing: 0.45 },
  l: { centreHz: 300, bandwidthHz: 200, level: 0, seconds: 0.05, burst: false, voicing: 0.6 },
};

/** An audible in-breath before phrases, as a produced vocal keeps them. */
export const INHALE: NoiseShape = { centreHz: 2000, bandwidthHz: 2500, level: 0.03, seconds: 0.22, burst: false, voicing: 0 };
