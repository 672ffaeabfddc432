import type { StereoAudio } from '../types';

/** Keeps silent references and perfect estimates finite, as in the MDX challenge's scorer. */
const SDR_EPSILON = 1e-7;

/**
 * Global signal-to-distortion ratio in dB, the MDX-challenge measure: 10·log10(Σs² / Σ(s − ŝ)²) summed over
 * both channels of the whole track (no framing, no allowed distortion filter, unlike BSS-eval's SDR).
 * The estimate is compared over the reference's length; missing samples count as zeros.
 */
export function globalSdr(reference: StereoAudio, estimate: StereoAudio): number {
  let signal = SDR_EPSILON;
  let error = SDR_EPSILON;
  for (const channel of ['left', 'right'] as const) {
    const s = reference[channel];
    const e = estimate[channel];
    for (let i = 0; i < s.length; i++) {
      const value = s[i];
      const diff = value - (i < e.length ? e[i] : 0);
      signal += value * value;
      error += diff * diff;
    }
  }
  return 10 * Math.log10(signal / error);
}

/**
 * The same measure from sums already taken (Σs² and Σ(s − ŝ)² over a track), for a scorer that gets them
 * another way; a sum that rounding made slightly negative counts as 0.
 */
export function sdrOfSums(signal: number, error: number): number {
  return 10 * Math.log10((signal + SDR_EPSILON) / (Math.max(0, error) + SDR_EPSILON));
}
