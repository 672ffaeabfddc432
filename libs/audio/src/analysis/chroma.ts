import type { Partial } from './partials';

/**
 * Pitch-class profiles (chroma) of the whole track, from its spectral peaks (partials.ts). Only peaks count, not
 * every FFT bin, so a loud partial's window leakage does not spill into the neighbouring semitones.
 *
 * Tuning: the reference is not assumed to be A = 440 Hz. The deviation of every partial from the equal-tempered
 * grid (a fraction of a semitone) is averaged as an angle on the circle, weighted by amplitude, and the grid is
 * shifted by that mean before partials are assigned to pitch classes.
 *
 * Each partial adds its amplitude × cos²(π·distance to the nearest semitone) to that semitone's pitch class, in
 * one of two profiles: bass (partials of 30–160 Hz: bass line roots, fifths and octaves) and treble (160 Hz–4 kHz:
 * chords, melody). The bass profile is kept apart because the bass line dwells on chord roots, the tonic most of
 * all — the strongest single cue between a key and its relative major or minor.
 */
export interface Chroma {
  bass: Float64Array;
  treble: Float64Array;
  /** Offset of the tuning from A = 440 Hz, in semitones (−0.5..0.5). */
  tuningSemitones: number;
}

const BASS_HZ: [number, number] = [30, 160];
const TREBLE_HZ: [number, number] = [160, 4000];

export function chroma(partials: Partial[]): Chroma {
  const tuningSemitones = estimateTuning(partials);
  const bass = new Float64Array(12);
  const treble = new Float64Array(12);
  for (const { frequency, amplitude } of partials) {
    const target = frequency < BASS_HZ[0] ? null : frequency < BASS_HZ[1] ? bass : frequency < TREBLE_HZ[1] ? treble : null;
    if (!target) continue;
    const pitch = 69 + 12 * Math.log2(frequency / 440) - tuningSemitones;
    const semitone = Math.round(pitch);
    target[((semitone % 12) + 12) % 12] += amplitude * Math.cos(Math.PI * (pitch - semitone)) ** 2;
  }
  return { bass, treble, tuningSemitones };
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
