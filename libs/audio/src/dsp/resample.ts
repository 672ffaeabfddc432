/**
 * Band-limited sample-rate conversion with Kaiser-windowed sinc filters, in two forms that share the filter design:
 * - `Resampler`: any exact rational ratio (polyphase). Output sample n sits at input time n * from / to, so
 *   nothing is delayed; samples beyond the signal count as zero. The separation engines convert to and from a
 *   model's rate with it.
 * - `halveRate`: exactly 2:1 with a half-band filter, whose every other tap is zero and which is symmetric, so a
 *   stage costs about (taps / 4) multiplications per output sample. The analysis decimates by powers of two with it.
 */

import { SampleQueue } from './sample-queue';

/**
 * Half-width of the sinc in zero crossings of the cutoff; sets the transition band. Measured for
 * 48 kHz -> 44.1 kHz: flat (< 0.01 dB) to 19 kHz, -1.1 dB at 20 kHz, -36 dB at 22 kHz, -90 dB at 23 kHz.
 */
const ZERO_CROSSINGS = 32;
/** Kaiser window shape: about -90 dB stopband. */
const KAISER_BETA = 9;
/** Cutoff as a fraction of the lower Nyquist frequency, leaving room for the transition band. */
const ROLLOFF = 0.94;

export class Resampler {
  /** Output samples per cycle of the ratio, and input samples they span. */
  private readonly up: number;
  private readonly down: number;
  /** Taps either side of the nearest input sample. */
  private readonly halfTaps: number;
  /** up rows of 2 * halfTaps + 1 taps; row p serves output samples at fractional input offset p / up. */
  private readonly filters: Float32Array;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0) {
      throw new RangeError(`Sample rates must be positive integers, got ${fromRate} -> ${toRate}`);
    }
    const divisor = gcd(fromRate, toRate);
    this.up = toRate / divisor;
    this.down = fromRate / divisor;
    // Cutoff in cycles per input sample: below the output's Nyquist when downsampling.
    const cutoff = 0.5 * ROLLOFF * Math.min(1, this.up / this.down);
    const halfWidth = ZERO_CROSSINGS / (2 * cutoff);
    this.halfTaps = Math.ceil(halfWidth);
    this.filters = buildPolyphaseFilters(this.up, this.halfTaps, cutoff, halfWidth);
  }

  /** Number of output samples for an input of the given length. */
  outputLength(inputLength: number): number {
    return Math.ceil((inputLength * this.up) / this.down);
  }

  process(input: Float32Array): Float32Array {
    if (this.up === this.down) return input.slice();
    const stream = this.stream();
    const head = stream.push(input);
    const tail = stream.end();
    const output = new Float32Array(head.length + tail.length);
    output.set(head);
    output.set(tail, head.length);
    return output;
  }

  /** A conversion fed piece by piece: the same samples as `process` on the pieces joined, in bounded memory. */
  stream(): ResamplerStream {
    return new ResamplerStream(this.up, this.down, this.halfTaps, this.filters);
  }
}

/**
 * One channel converted as it arrives. Each output sample needs `halfTaps` input samples past its time,
 * so the output trails the input by that much until `end`, which pads the signal with zeros as `process`
 * does. Only the input still ahead of the next output's filter is kept.
 */
export class ResamplerStream {
  private readonly taps: number;
  /** Zero-padded input, by padded position (the padding puts `halfTaps` zeros first). */
  private readonly pending = new SampleQueue();
  /** Padded index of the next output's first tap, and (n * down) mod up for it. */
  private base = 0;
  private phase = 0;
  private produced = 0;
  private pushed = 0;
  private ended = false;

  constructor(
    private readonly up: number,
    private readonly down: number,
    private readonly halfTaps: number,
    private readonly filters: Float32Array,
  ) {
    this.taps = 2 * halfTaps + 1;
    this.pending.append(new Float32Array(halfTaps));
  }

  /** Samples of input storage held. */
  get held(): number {
    return this.pending.held;
  }

  /** The output samples this input completes (none may be ready yet). Equal rates pass the input through. */
  push(input: Float32Array): Float32Array {
    if (this.ended) throw new Error('ResamplerStream: push after end');
    this.pushed += input.length;
    if (this.up === this.down) return input;
    this.pending.append(input);
    return this.emit(Number.POSITIVE_INFINITY);
  }

  /** The rest of the output: as many samples in all as `process` gives for everything pushed. */
  end(): Float32Array {
    if (this.ended) throw new Error('ResamplerStream: end called twice');
    this.ended = true;
    if (this.up === this.down) return new Float32Array(0);
    this.pending.append(new Float32Array(this.halfTaps + 1));
    return this.emit(Math.ceil((this.pushed * this.up) / this.down));
  }

  private emit(limit: number): Float32Array {
    const { up, down, taps, filters } = this;
    const available = this.pending.end; // padded samples received so far
    // Outputs whose whole filter lies inside what was received (and within `limit`).
    let count = 0;
    for (let base = this.base, phase = this.phase; this.produced + count < limit && base + taps <= available; count++) {
      phase += down;
      base += Math.floor(phase / up);
      phase %= up;
    }
    const output = new Float32Array(count);
    const pending = this.pending.buffer;
    const start = this.pending.start;
    for (let n = 0; n < count; n++) {
      const row = this.phase * taps;
      const at = this.base - start;
      let sum = 0;
      for (let j = 0; j < taps; j++) sum += pending[at + j] * filters[row + j];
      output[n] = sum;
      this.phase += down;
      this.base += Math.floor(this.phase / up);
      this.phase %= up;
    }
    this.produced += count;
    this.pending.dropBefore(this.base); // what no later output reads
    return output;
  }
}

/** Convenience for one-off conversions; reuse a Resampler when converting several channels. */
export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  return new Resampler(fromRate, toRate).process(input);
}

function buildPolyphaseFilters(phases: number, halfTaps: number, cutoff: number, halfWidth: number): Float32Array {
  const taps = 2 * halfTaps + 1;
  const filters = new Float32Array(phases * taps);
  for (let p = 0; p < phases; p++) {
    const fraction = p / phases;
    const row = new Float64Array(taps);
    let sum = 0;
    for (let j = 0; j < taps; j++) {
      // Tap j weighs input sample base + j - halfTaps, which lies `distance` input samples from the output.
      row[j] = windowedSinc(fraction - (j - halfTaps), cutoff, halfWidth, KAISER_BETA);
      sum += row[j];
    }
    // Unit gain at DC for every phase, so a constant stays exactly constant (no phase-dependent ripple).
    for (let j = 0; j < taps; j++) filters[p * taps + j] = row[j] / sum;
  }
  return filters;
}

/** A half-band kernel's non-zero taps: `centre` multiplies x[n], oddTaps[j] multiplies x[n ± (2j + 1)]. */
export interface HalfBandKernel {
  centre: number;
  oddTaps: Float64Array;
}

/**
 * A half-band low-pass (cutoff at a quarter of the input rate) with `pairs` non-zero taps either side of the
 * centre; more pairs and a larger Kaiser beta give a sharper, deeper filter. `pairs` must be a multiple of 4:
 * halveRate applies the taps four at a time.
 */
export function halfBandKernel(pairs: number, kaiserBeta: number): HalfBandKernel {
  if (pairs % 4 !== 0) throw new Error('half-band kernels have a multiple of 4 tap pairs');
  const oddTaps = new Float64Array(pairs);
  let sum = 0.5;
  for (let j = 0; j < pairs; j++) {
    oddTaps[j] = windowedSinc(2 * j + 1, 0.25, 2 * pairs, kaiserBeta);
    sum += 2 * oddTaps[j];
  }
  // Unity gain at DC.
  return { centre: 0.5 / sum, oddTaps: oddTaps.map((tap) => tap / sum) };
}

/** Low-passes with a half-band kernel and keeps every other sample; samples beyond the signal count as zero. */
export function halveRate(input: Float32Array, kernel: HalfBandKernel): Float32Array {
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

/**
 * Low-pass tap `distance` samples from the centre: the ideal filter for `cutoff` (cycles per sample) under a
 * Kaiser window reaching zero `halfWidth` samples out.
 */
function windowedSinc(distance: number, cutoff: number, halfWidth: number, kaiserBeta: number): number {
  const x = distance / halfWidth;
  if (Math.abs(x) >= 1) return 0;
  const window = besselI0(kaiserBeta * Math.sqrt(1 - x * x)) / besselI0(kaiserBeta);
  return 2 * cutoff * sinc(2 * cutoff * distance) * window;
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/** Modified Bessel function of the first kind, order 0 (power series; converges fast for beta < 20). */
function besselI0(x: number): number {
  let term = 1;
  let sum = 1;
  const quarterSquare = (x * x) / 4;
  for (let k = 1; term > 1e-12 * sum; k++) {
    term *= quarterSquare / (k * k);
    sum += term;
  }
  return sum;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
