import { halfBandKernel, halveRate } from '../dsp/resample';
import type { StereoAudio } from '../types';

/** A mono signal at its own sample rate. */
export interface MonoSignal {
  sampleRate: number;
  samples: Float32Array;
}

/** The analysis works at the source rate halved until it is below 2 × this (44.1 kHz → 11025 Hz, 48 kHz → 12 kHz). */
const ANALYSIS_MIN_RATE = 11025;

/** Mid channel (L + R) / 2: what the tempo, key and timbre analyses listen to. */
export function downmixToMono(audio: StereoAudio): Float32Array {
  const { left, right } = audio;
  const mono = new Float32Array(left.length);
  for (let i = 0; i < mono.length; i++) mono[i] = 0.5 * (left[i] + right[i]);
  return mono;
}

const SHORT_KERNEL = halfBandKernel(4, 6);
const SHARP_KERNEL = halfBandKernel(8, 7);

/**
 * Decimation by powers of two with half-band FIR low-passes (`halveRate`). Only the last stage needs a sharp
 * filter: earlier stages only have to keep aliases out of the band the last stage keeps, so they use short kernels.
 * At 44.1 kHz → 11025 Hz (see mono-signal.spec.ts): flat (< 0.05 dB) to 4 kHz, −0.3 dB at 4.5 kHz, and what would
 * alias below 4 kHz is at least 60 dB down. The 4–5.5 kHz top of the analysis band may hold weak aliases; the
 * analyses that read it (onset flux, brightness) do not care about pitch there, and chroma stops below it.
 */
export function decimateToAnalysisRate(signal: MonoSignal, minRate = ANALYSIS_MIN_RATE): MonoSignal {
  let stages = 0;
  while (signal.sampleRate / 2 ** (stages + 1) >= minRate) stages++;
  let samples = signal.samples;
  for (let stage = 0; stage < stages; stage++) {
    samples = halveRate(samples, stage === stages - 1 ? SHARP_KERNEL : SHORT_KERNEL);
  }
  return { sampleRate: signal.sampleRate / 2 ** stages, samples };
}

