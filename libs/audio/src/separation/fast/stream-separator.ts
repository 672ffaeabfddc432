import { availableParallelism } from 'node:os';
import { StereoStft } from '../../dsp';
import type { SeparationProgress, StemSet, StereoAudio } from '../../types';
import { fastParameters, type FastParameters } from './parameters';
import { SegmentSeparator } from './separate-segment';
import { planSegments, type Segment } from './segments';
import { SegmentThreadPool, segmentWorkerAvailable, type SegmentResult } from './worker-pool';

export interface StreamSeparationOptions {
  /** Worker threads; 0 separates in the calling thread. Default: one per core, up to 4 (0 without the compiled worker). */
  threads?: number;
  /** Expected length in frames (from a probe), only for progress; the stream's real end decides. */
  expectedFrames?: number;
  onProgress?: (progress: SeparationProgress) => void;
}

/** What a streamed separation produced: frames written and the sample rate. */
export interface StreamSeparationResult {
  frames: number;
  sampleRate: number;
}

const MAX_DEFAULT_THREADS = 4;

/**
 * The fast engine over a stream: the same segments (segments.ts), the same per-segment DSP and so the
 * same samples as FastSeparator.separate on the whole array, but with memory bounded by the segment
 * size instead of the song's length. Input chunks are buffered only until every segment that reads
 * them is under way; each segment gets its own slice of the input (its analysed frames, no more) and
 * returns its owned samples, which are handed to `write` in order, a chunk of four stems at a time.
 *
 * Segment k is fixed as soon as the input reaches the end of its analysed frames: a track at least that
 * long plans segment k exactly so (no clipping at the end). When the stream ends, the track's length is
 * known and the last segments are planned as planSegments plans them.
 */
export async function separateFastStream(
  source: AsyncIterable<StereoAudio>,
  write: (stems: StemSet) => Promise<void>,
  options: StreamSeparationOptions = {},
): Promise<StreamSeparationResult> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return { frames: 0, sampleRate: 0 };
  const sampleRate = first.value.sampleRate;
  if (!(sampleRate > 0)) throw new Error(`invalid sample rate ${sampleRate}`);
  const params = fastParameters(sampleRate);
  const geometry = new SegmentGeometry(params);
  const input = new SlidingInput();
  const threads = threadCount(options.threads);
  const pool = threads > 0 ? new SegmentThreadPool(params, geometry.maxAnalysisFrames, threads) : null;
  const inline = pool ? null : new SegmentSeparator(params, geometry.maxAnalysisFrames);
  const expectedSegments = options.expectedFrames ? geometry.expectedSegments(options.expectedFrames) : 0;
  const inFlight: Array<Promise<SegmentResult>> = [];
  const maxInFlight = Math.max(1, threads) + 1;
  let next = 0;
  let written = 0;

  const run = (segment: Segment): Promise<SegmentResult> => {
    const slice = geometry.sliceOf(segment, input);
    if (pool) return pool.separate(slice);
    const result = separateSlice(inline!, slice);
    return new Promise((resolve) => setImmediate(() => resolve(result)));
  };
  const flushOne = async () => {
    const result = await inFlight.shift()!;
    await write(result.stems);
    written++;
    const total = Math.max(expectedSegments, written + inFlight.length, 1);
    options.onProgress?.({ fraction: Math.min(0.99, written / total) });
  };
  const dispatch = async (segment: Segment) => {
    inFlight.push(run(segment));
    input.release(geometry.inputStart(geometry.unclipped(next + 1)));
    next++;
    if (inFlight.length >= maxInFlight) await flushOne();
  };

  try {
    input.append(first.value);
    for (let chunk = await iterator.next(); !chunk.done; chunk = await iterator.next()) {
      if (chunk.value.sampleRate !== sampleRate) throw new Error('sample rate changed within the stream');
      input.append(chunk.value);
      while (input.end >= geometry.unclippedNeedEnd(next)) await dispatch(geometry.unclipped(next));
    }
    // The stream has ended: the length is known, so the last segments are planned exactly.
    const plan = geometry.plan(input.end);
    while (next < plan.length) await dispatch(plan[next]);
    while (inFlight.length > 0) await flushOne();
    options.onProgress?.({ fraction: 1 });
    return { frames: input.end, sampleRate };
  } finally {
    await Promise.allSettled(inFlight);
    await pool?.close();
    await iterator.return?.();
  }
}

/** A slice of the input in the segment's own coordinates: frame 0 starts at sample 0 of the slice. */
export interface SegmentSlice {
  segment: Segment;
  sampleRate: number;
  /** Absolute sample of the slice's first sample. */
  start: number;
  left: Float32Array;
  right: Float32Array;
  /** Absolute sample at which the owned output starts, and how many owned samples there are. */
  ownedFrom: number;
  ownedLength: number;
}

/** Separates one slice in this thread (each worker thread runs the same) and keeps the owned samples. */
export function separateSlice(separator: SegmentSeparator, slice: SegmentSlice): SegmentResult {
  const length = slice.left.length;
  const stereo = () => ({ left: new Float32Array(length), right: new Float32Array(length) });
  const out = { vocals: stereo(), drums: stereo(), bass: stereo(), other: stereo() };
  separator.separate({ left: slice.left, right: slice.right }, slice.segment, out);
  const from = slice.ownedFrom - slice.start;
  const to = from + slice.ownedLength;
  const owned = (name: keyof StemSet): StereoAudio => ({
    sampleRate: slice.sampleRate,
    left: out[name].left.slice(from, to),
    right: out[name].right.slice(from, to),
  });
  return { ownedFrom: slice.ownedFrom, stems: { vocals: owned('vocals'), drums: owned('drums'), bass: owned('bass'), other: owned('other') } };
}

/** Frame arithmetic of the fast engine's segments (see segments.ts and StereoStft's frame layout). */
class SegmentGeometry {
  readonly hop: number;
  readonly overlap: number;
  readonly maxAnalysisFrames: number;
  private readonly stft: StereoStft;

  constructor(private readonly params: FastParameters) {
    this.hop = params.hop;
    this.overlap = params.fftSize / params.hop;
    this.stft = new StereoStft(params.fftSize, params.hop);
    this.maxAnalysisFrames = params.segmentFrames + this.overlap - 1 + 2 * params.marginFrames;
  }

  /** Segment k of a track long enough not to clip it. */
  unclipped(k: number): Segment {
    const { segmentFrames, marginFrames } = this.params;
    const ownFrom = k * segmentFrames;
    const ownTo = ownFrom + segmentFrames;
    const synthesisTo = ownTo + this.overlap - 1;
    return { ownFrom, ownTo, synthesisTo, analysisFrom: Math.max(0, ownFrom - marginFrames), analysisTo: synthesisTo + marginFrames };
  }

  /** Input samples segment k needs when unclipped: up to the end of its last analysed frame. */
  unclippedNeedEnd(k: number): number {
    return this.unclipped(k).analysisTo * this.hop;
  }

  /** First input sample a segment reads (0 for the frames straddling the track's start). */
  inputStart(segment: Segment): number {
    return Math.max(0, segment.analysisFrom - (this.overlap - 1)) * this.hop;
  }

  plan(length: number): Segment[] {
    return planSegments({
      totalFrames: this.stft.frameCount(length),
      overlap: this.overlap,
      segmentFrames: this.params.segmentFrames,
      marginFrames: this.params.marginFrames,
    });
  }

  expectedSegments(frames: number): number {
    return Math.ceil(Math.ceil(frames / this.hop) / this.params.segmentFrames);
  }

  /**
   * The segment shifted to start at its first read sample (a whole number of hops, so every frame keeps
   * its samples), with the input it reads. Frames never reach past the slice except at the track's end,
   * where the slice ends with the track and the zero padding is the same as on the whole array.
   */
  sliceOf(segment: Segment, input: SlidingInput): SegmentSlice {
    const start = this.inputStart(segment);
    const end = Math.min(input.end, segment.analysisTo * this.hop);
    const shift = start / this.hop;
    const local: Segment = {
      ownFrom: segment.ownFrom - shift,
      ownTo: segment.ownTo - shift,
      synthesisTo: segment.synthesisTo - shift,
      analysisFrom: segment.analysisFrom - shift,
      analysisTo: segment.analysisTo - shift,
    };
    const ownedFrom = segment.ownFrom * this.hop;
    const ownedTo = Math.min(input.end, segment.ownTo * this.hop);
    const { left, right } = input.copy(start, end);
    return { segment: local, sampleRate: this.params.sampleRate, start, left, right, ownedFrom, ownedLength: Math.max(0, ownedTo - ownedFrom) };
  }
}

/** The input samples still needed, with their absolute position; older ones are dropped as segments start. */
class SlidingInput {
  /** Absolute index of buffer[0]. */
  private start = 0;
  private filled = 0;
  private left = new Float32Array(0);
  private right = new Float32Array(0);

  /** Absolute index one past the last sample received. */
  get end(): number {
    return this.start + this.filled;
  }

  append(chunk: StereoAudio): void {
    const frames = chunk.left.length;
    if (this.filled + frames > this.left.length) this.grow(this.filled + frames);
    this.left.set(chunk.left, this.filled);
    this.right.set(chunk.right, this.filled);
    this.filled += frames;
  }

  /** Forgets samples before `absolute`. */
  release(absolute: number): void {
    const drop = Math.min(this.filled, Math.max(0, absolute - this.start));
    if (drop === 0) return;
    this.left.copyWithin(0, drop, this.filled);
    this.right.copyWithin(0, drop, this.filled);
    this.filled -= drop;
    this.start += drop;
  }

  copy(from: number, to: number): { left: Float32Array; right: Float32Array } {
    const a = from - this.start;
    const b = to - this.start;
    if (a < 0 || b > this.filled) throw new Error(`samples ${from}..${to} are no longer buffered`);
    return { left: this.left.slice(a, b), right: this.right.slice(a, b) };
  }

  private grow(needed: number): void {
    const size = Math.max(needed, 2 * this.left.length, 1 << 16);
    const left = new Float32Array(size);
    const right = new Float32Array(size);
    left.set(this.left.subarray(0, this.filled));
    right.set(this.right.subarray(0, this.filled));
    this.left = left;
    this.right = right;
  }
}

function threadCount(requested: number | undefined): number {
  if (!segmentWorkerAvailable()) return 0;
  const cores = availableParallelism();
  return requested ?? (cores > 1 ? Math.min(cores, MAX_DEFAULT_THREADS) : 0);
}
