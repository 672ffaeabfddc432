import type { Partial } from './partials';

/**
 * The track's pitch-class profile (chroma), from its spectral peaks (partials.ts, 30 Hz–4 kHz). Only peaks
 * count, not every FFT bin, so a loud partial's window leakage does not spill into the neighbouring semitones.
 *
 * Tuning: the reference is not assumed to be A = 440 Hz. The deviation of every partial from the equal-tempered
 * grid (a fraction of a semitone) is averaged as an angle on the circle, weighted by amplitude, and the grid is
 * shifted by that mean before partials are assigned to pitch classes.
 *
 * Each partial adds its amplitude × cos²(π·distance to the nearest semitone) to that semitone's pitch class:
 * partials between two semitones (out of tune, gliding) count little.
 *
 * Upper harmonics are not notes: a note's 5th harmonic is a major third two octaves above it. Bright timbres —
 * sawtooth synths, distorted guitars playing bare-fifth power chords, brass — are rich in it, and a minor song
 * played with them reads as its parallel major (the tonic's 5th harmonic is the major third). So a partial within
 * HARMONIC_TOLERANCE semitones of 5× the frequency of a partial at least HARMONIC_DOMINANCE times as strong in the
 * same window is left out of the profile. Octave harmonics fall on the note's own pitch class; the 3rd (a fifth
 * up) is left in too: leaving it out did no better on development material and drops real melody notes a twelfth
 * above a louder chord tone.
 * `bass` is the same profile over the partials below 160 Hz only (bass line, kick). Weighting it more in the main
 * profile did not help (bass lines spend as long on the fifth and on other chords' roots as on the tonic), but it
 * breaks near-ties between relative keys (key.ts).
 *
 * `tonalShare` is the share of partial amplitude in steady sinusoids (smear < 0.3): what makes a pitch-class
 * profile meaningful. Drums, clicks and noise also have spectral peaks, but almost none of them steady.
 */
export interface Chroma {
  /** Summed weight per pitch class, C = 0 … B = 11. */
  profile: Float64Array;
  bass: Float64Array;
  tonalShare: number;
  /** Offset of the tuning from A = 440 Hz, in semitones (−0.5..0.5). */
  tuningSemitones: number;
}

const BASS_LIMIT_HZ = 160;
const STEADY_SMEAR = 0.3;
const HARMONIC_TOLERANCE = 0.2;
const HARMONIC_DOMINANCE = 2;
const SUPPRESSED_HARMONIC = 5;

export function chroma(partials: Partial[]): Chroma {
  const tuningSemitones = estimateTuning(partials);
  const profile = new Float64Array(12);
  const bass = new Float64Array(12);
  let steady = 0;
  let total = 0;
  let frameStart = 0;
  for (let i = 0; i < partials.length; i++) {
    const { frame, frequency, amplitude, smear } = partials[i];
    if (frame !== partials[frameStart].frame) frameStart = i;
    total += amplitude;
    if (smear < STEADY_SMEAR) steady += amplitude;
    if (isUpperHarmonic(partials, frameStart, i)) continue;
    const pitch = 69 + 12 * Math.log2(frequency / 440) - tuningSemitones;
    const semitone = Math.round(pitch);
    const pitchClass = ((semitone % 12) + 12) % 12;
    const weight = amplitude * Math.cos(Math.PI * (pitch - semitone)) ** 2;
    profile[pitchClass] += weight;
    if (frequency < BASS_LIMIT_HZ) bass[pitchClass] += weight;
  }
  return { profile, bass, tonalShare: total > 0 ? steady / total : 0, tuningSemitones };
}

/**
 * Whether partials[index] lies at 5× a much stronger partial of its window (those are partials[from..index), in
 * ascending frequency).
 */
function isUpperHarmonic(partials: Partial[], from: number, index: number): boolean {
  const { frequency, amplitude } = partials[index];
  const highestFundamental = (frequency / SUPPRESSED_HARMONIC) * 2 ** (HARMONIC_TOLERANCE / 12);
  for (let j = from; j < index && partials[j].frequency <= highestFundamental; j++) {
    const fundamental = partials[j];
    if (fundamental.amplitude < HARMONIC_DOMINANCE * amplitude) continue;
    if (Math.abs(12 * Math.log2(frequency / (SUPPRESSED_HARMONIC * fundamental.frequency))) < HARMONIC_TOLERANCE) return true;
  }
  return false;
}

/** Amplitude-weighted circular mean of the partials' deviation from the A = 440 Hz semitone grid. */
function estimateTuning(partials: Partial[]): number {
  let x = 0;
  let y = 0;
  for (const { frequency, amplitude } of partials) {
    if (frequency < 100 || frequency > 2000) continue;
    const angle = 2 * Math.PI * (12 * Math.log2(frequency / 440));
    x += amplitude * Math.cos(angle);
    y += amplitude * Math.sin(angle);
  }
  return x === 0 && y === 0 ? 0 : Math.atan2(y, x) / (2 * Math.PI);
}
