import { forEachPowerSpectrum } from './spectrum';
import { nearestPowerOfTwo } from './math';
import type { MonoSignal } from './mono-signal';

/**
 * Spectral peaks ("partials") of the whole track, for the key, the harmonic rhythm (harmony.ts) and the vocal
 * descriptors.
 *
 * Back-to-back windows of ~0.37 s (4096 samples at 11025 Hz, 2.7 Hz bins): long enough to separate semitones
 * down to the bass register. Key needs no finer time resolution, and a pitch-class histogram over minutes loses
 * nothing by skipping the window edges that overlap would recover. In each frame the local maxima of
 * the magnitude spectrum between 30 Hz and 4 kHz within 30 dB of the frame's strongest are taken as partials;
 * their frequency is refined by parabolic interpolation of the log magnitude (a fraction of a bin), which places
 * even a 41 Hz bass note on the right semitone.
 *
 * `smear` tells a steady tone from a moving one: the magnitude two bins either side of the peak relative to the
 * three bins at its top. A Hann-windowed steady sinusoid puts almost nothing two bins out (smear ≈ 0–0.15); a
 * partial whose pitch moves within the window (vibrato, glides: singing, speech) spreads over several bins.
 */
export interface Partial {
  /** Index of the window it was found in (partials come in window order, ascending frequency within one). */
  frame: number;
  frequency: number;
  amplitude: number;
  smear: number;
}

const PARTIALS_MIN_HZ = 30;
const PARTIALS_MAX_HZ = 4000;
const PEAK_RANGE_DB = 30;

/** Samples in one window of findPartials at this sample rate (~0.37 s). */
const frameSizeAt = (sampleRate: number) => nearestPowerOfTwo(0.37 * sampleRate);

/** Windows per second of findPartials at this sample rate. */
export function partialsFramesPerSecond(sampleRate: number): number {
  return sampleRate / frameSizeAt(sampleRate);
}

export function findPartials(signal: MonoSignal): Partial[] {
  const frameSize = frameSizeAt(signal.sampleRate);
  const framing = { frameSize, hop: frameSize };
  const binHz = signal.sampleRate / frameSize;
  const firstBin = Math.max(2, Math.floor(PARTIALS_MIN_HZ / binHz));
  const lastBin = Math.min(frameSize / 2 - 2, Math.ceil(PARTIALS_MAX_HZ / binHz));
  const partials: Partial[] = [];
  const floorRatio = 10 ** (-PEAK_RANGE_DB / 10);
  forEachPowerSpectrum(signal.samples, framing, (frame, power) => {
    let loudest = 0;
    for (let bin = firstBin; bin <= lastBin; bin++) if (power[bin] > loudest) loudest = power[bin];
    const floor = loudest * floorRatio;
    for (let bin = firstBin; bin <= lastBin; bin++) {
      const peak = power[bin];
      if (peak <= floor || peak <= power[bin - 1] || peak < power[bin + 1]) continue;
      // Parabola through the log magnitudes (half the log powers) of the peak bin and its neighbours.
      const [a, b, c] = [0.5 * Math.log(power[bin - 1] + 1e-24), 0.5 * Math.log(peak), 0.5 * Math.log(power[bin + 1] + 1e-24)];
      const curvature = a - 2 * b + c;
      const offset = curvature < 0 ? (0.5 * (a - c)) / curvature : 0;
      const magnitude = (k: number) => Math.sqrt(power[k]);
      partials.push({
        frame,
        frequency: (bin + offset) * binHz,
        amplitude: Math.exp(b - 0.25 * (a - c) * offset),
        smear: (magnitude(bin - 2) + magnitude(bin + 2)) / (magnitude(bin - 1) + magnitude(bin) + magnitude(bin + 1)),
      });
    }
  });
  return partials;
}
