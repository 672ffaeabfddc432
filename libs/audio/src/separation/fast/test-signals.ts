import { STEM_TYPES, type StemSet, type StereoAudio } from '../../types';

/**
 * A toy multitrack with one textbook source per stem: a centred low sine (bass), a click track (drums),
 * a centred vibrato tone in the vocal range (vocals) and a steady tone panned to the left (other).
 * Deterministic (the clicks' noise comes from a fixed hash).
 */
export function toyMultitrack(sampleRate: number, seconds: number): { mixture: StereoAudio; stems: StemSet } {
  const length = Math.round(sampleRate * seconds);
  const stem = (): StereoAudio => ({ sampleRate, left: new Float32Array(length), right: new Float32Array(length) });
  const stems: StemSet = { vocals: stem(), drums: stem(), bass: stem(), other: stem() };
  const clickEvery = Math.round(sampleRate * 0.25);
  const clickDecay = sampleRate * 0.008;
  let vocalPhase = 0;
  for (let t = 0; t < length; t++) {
    const seconds = t / sampleRate;
    const bass = 0.3 * Math.sin(2 * Math.PI * 55 * seconds);
    stems.bass.left[t] = bass;
    stems.bass.right[t] = bass;

    const sinceClick = t % clickEvery;
    const click = 0.8 * Math.exp(-sinceClick / clickDecay) * hashNoise(t);
    stems.drums.left[t] = click;
    stems.drums.right[t] = click;

    // 330 Hz with a 5.5 Hz, ±40 cent vibrato; six harmonics falling off at 6 dB per octave.
    vocalPhase += (2 * Math.PI * 330 * 2 ** ((40 / 1200) * Math.sin(2 * Math.PI * 5.5 * seconds))) / sampleRate;
    let vocal = 0;
    for (let h = 1; h <= 6; h++) vocal += (0.15 / h) * Math.sin(h * vocalPhase);
    stems.vocals.left[t] = vocal;
    stems.vocals.right[t] = vocal;

    const other = 0.1 * (Math.sin(2 * Math.PI * 523.25 * seconds) + 0.5 * Math.sin(2 * Math.PI * 784 * seconds));
    stems.other.left[t] = 0.9 * other;
    stems.other.right[t] = 0.25 * other;
  }
  const mixture = stem();
  for (const type of STEM_TYPES) {
    for (let t = 0; t < length; t++) {
      mixture.left[t] += stems[type].left[t];
      mixture.right[t] += stems[type].right[t];
    }
  }
  return { mixture, stems };
}

/** Uniform noise in [−1, 1) from an integer hash of the sample index. */
function hashNoise(t: number): number {
  let x = Math.imul(t ^ 0x9e3779b9, 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 31 - 1;
}
