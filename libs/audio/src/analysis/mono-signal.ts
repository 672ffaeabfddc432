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

/**
 * Decimation by powers of two with half-band FIR low-passes (Kaiser-windowed sinc, cutoff at a quarter of the
 * stage's input rate). A half-band filter has every other tap zero and is symmetric, so a stage costs about
 * (taps / 4) multiplications per output sample. Only the last stage needs a sharp filter: earlier stages only
 * have to keep aliases out of the band the last stage keeps, so they use short kernels.
 * At 44.1 kHz → 11025 Hz (see resample.spec.ts): flat (< 0.05 dB) to 4 kHz, −0.3 dB at 4.5 kHz, and what would
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

/** A half-band kernel's non-zero taps: `centre` multiplies x[n], oddTaps[j] multiplies x[n ± (2j + 1)]. */
interface HalfBandKernel {
  centre: number;
  oddTaps: Float64Array;
}

const SHORT_KERNEL = halfBandKernel(4, 6);
const SHARP_KERNEL = halfBandKernel(8, 7);

/** `pairs` must be a multiple of 4: halveRate applies the taps four at a time. */
function halfBandKernel(pairs: number, kaiserBeta: number): HalfBandKernel {
  if (pairs % 4 !== 0) throw new Error('half-band kernels have a multiple of 4 tap pairs');
  const halfLength = 2 * pairs - 1;
  const oddTaps = new Float64Array(pairs);
  let sum = 0.5;
  for (let j = 0; j < pairs; j++) {
    const n = 2 * j + 1;
    const sinc = Math.sin((Math.PI * n) / 2) / (Math.PI * n);
    const ratio = n / (halfLength + 1);
    const window = besselI0(kaiserBeta * Math.sqrt(1 - ratio * ratio)) / besselI0(kaiserBeta);
    oddTaps[j] = sinc * window;
    sum += 2 * oddTaps[j];
  }
  // Unity gain at DC.
  return { centre: 0.5 / sum, oddTaps: oddTaps.map((tap) => tap / sum) };
}

function besselI0(x: number): number {
  let term = 1;
  let sum = 1;
  for (let k = 1; k < 30; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

function halveRate(input: Float32Array, kernel: HalfBandKernel): Float32Array {
  const { centre, oddTaps } = kernel;
  const reach = 2 * oddTaps.length - 1;
  const out = new Float32Array(Math.ceil(input.length / 2));
  // Outputs whose kernel lies inside the input take the fast path; the few at the ends treat outside samples as 0.
  const firstInner = Math.ceil(reach / 2);
  const lastInner = Math.floor((input.length - 1 - reach) / 2);
  for (let m = 0; m < Math.min(firstInner, out.length); m++) out[m] = filterAtEdge(input, 2 * m, kernel);
  for (let m = Math.max(lastInner + 1, firstInner); m < out.length; m++) out[m] = filterAtEdge(input, 2 * m, kernel);
  for (let m = firstInner; m <= lastInner; m++) {
    const at = 2 * m;
    let acc = centre * input[at];
    // Four tap pairs per iteration: a quarter of the loop overhead in the analysis's hottest loop.
    for (let j = 0; j < oddTaps.length; j += 4) {
      const near = at - 2 * j - 1;
      const far = at + 2 * j + 1;
      acc +=
        oddTaps[j] * (input[near] + input[far]) +
        oddTaps[j + 1] * (input[near - 2] + input[far + 2]) +
        oddTaps[j + 2] * (input[near - 4] + input[far + 4]) +
        oddTaps[j + 3] * (input[near - 6] + input[far + 6]);
    }
    out[m] = acc;
  }
  return out;
}

function filterAtEdge(input: Float32Array, at: number, kernel: HalfBandKernel): number {
  const sample = (i: number) => (i >= 0 && i < input.length ? input[i] : 0);
  let acc = kernel.centre * sample(at);
  for (let j = 0; j < kernel.oddTaps.length; j++) {
    acc += kernel.oddTaps[j] * (sample(at - 2 * j - 1) + sample(at + 2 * j + 1));
  }
  return acc;
}
