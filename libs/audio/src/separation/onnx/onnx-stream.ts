import type { InferenceSession } from 'onnxruntime-node';
import type { SeparationProgress, StemSet, StemType, StereoAudio } from '../../types';
import type { MixStatistics } from './mix-normalization';
import { Resampler, type ResamplerStream } from '../../dsp/resample';
import { SampleQueue } from '../../dsp/sample-queue';
import { OverlapAdd, segmentOffsets, segmentStride } from './segments';

/** What loading a model file gives: how to separate one window, how long each window is, and the sources. */
export interface LoadedModel {
  session: InferenceSession;
  /** Planar [left, right] window of `length` samples in; [source][channel][length] out, in `sources` order. */
  runWindow: (window: Float32Array, length: number) => Promise<Float32Array>;
  /** Window length in samples at the model's rate. */
  segmentLength: number;
  /** Stem of each output row pair, in output order. */
  sources: readonly StemType[];
}

export interface OnnxStreamSpec {
  /** Stem of each model output, in output order. */
  sources: readonly StemType[];
  overlap: number;
  /** The song's rate (every pushed chunk's) and the model's. */
  sampleRate: number;
  modelRate: number;
  /** Normalise by these (the whole song's) and scale the stems back; null leaves the mix as it is. */
  statistics: MixStatistics | null;
  expectedFrames?: number;
  onProgress?: (progress: SeparationProgress) => void;
}

/**
 * One song through an ONNX waveform model as it is decoded. The mix is converted to the model's rate,
 * cut into fixed windows every (1 - overlap) windows, each run through the model and cross-faded with
 * its neighbours (Demucs's apply_model); samples no later window touches are finished, converted back to
 * the song's rate and returned. Held at any time: about two windows of input and one of output per
 * model row, whatever the song's length. Fed the whole song in one piece it gives the same samples as
 * fed in many (the windows, sums and filters see the same numbers in the same order).
 */
export class OnnxSeparationStream {
  private readonly toModel: ResamplerStream[];
  private readonly fromModel: ResamplerStream[];
  private readonly input: SampleQueue[] = [new SampleQueue(), new SampleQueue()];
  private readonly overlapAdd: OverlapAdd;
  private readonly stride: number;
  private readonly expectedWindows: number | null;
  /** Model-rate position of the next window. */
  private nextOffset = 0;
  private windowsRun = 0;
  private framesIn = 0;
  private framesOut = 0;
  private ended = false;

  constructor(
    private readonly model: LoadedModel,
    private readonly spec: OnnxStreamSpec,
  ) {
    const { sampleRate, modelRate, sources, overlap, expectedFrames } = spec;
    const { segmentLength } = model;
    const toModelRate = new Resampler(sampleRate, modelRate);
    const fromModelRate = new Resampler(modelRate, sampleRate);
    this.toModel = [toModelRate.stream(), toModelRate.stream()];
    this.fromModel = Array.from({ length: 2 * sources.length }, () => fromModelRate.stream());
    this.overlapAdd = new OverlapAdd(2 * sources.length, segmentLength);
    this.stride = segmentStride(segmentLength, overlap);
    this.expectedWindows = expectedFrames === undefined ? null : segmentOffsets(toModelRate.outputLength(expectedFrames), segmentLength, overlap).length;
  }

  /** Takes the next piece of the song; returns the stems finished so far (often none, at first). */
  async push({ sampleRate, left, right }: StereoAudio): Promise<StemSet> {
    if (this.ended) throw new Error('OnnxSeparationStream: push after end');
    if (sampleRate !== this.spec.sampleRate) throw new RangeError(`chunk at ${sampleRate} Hz in a ${this.spec.sampleRate} Hz stream`);
    if (left.length !== right.length) throw new RangeError(`left and right differ in length (${left.length} vs ${right.length})`);
    this.framesIn += left.length;
    this.appendInput([this.toModel[0].push(left), this.toModel[1].push(right)]);
    const { segmentLength } = this.model;
    const rows = await this.runWindows((offset) => (offset + segmentLength <= this.input[0].end ? segmentLength : 0));
    return this.toStems(rows, false);
  }

  /** The song is complete: the last windows (zero-padded past its end) and the rest of the stems. */
  async end(): Promise<StemSet> {
    if (this.ended) throw new Error('OnnxSeparationStream: end called twice');
    this.ended = true;
    this.appendInput([this.toModel[0].end(), this.toModel[1].end()]);
    const length = this.input[0].end;
    const rows = await this.runWindows((offset) => (offset < length ? Math.min(this.model.segmentLength, length - offset) : 0));
    const last = this.overlapAdd.take(length);
    rows.forEach((parts, row) => parts.push(last[row]));
    if (this.windowsRun === 0) this.spec.onProgress?.({ fraction: 1 });
    return this.toStems(rows, true);
  }

  /** Samples held between calls, in every buffer of this stream (input, sums, filters' history): for tests. */
  get heldSamples(): number {
    return this.input.reduce((total, queue) => total + queue.held, 0) + this.overlapAdd.held + [...this.toModel, ...this.fromModel].reduce((total, stream) => total + stream.held, 0);
  }

  private appendInput(channels: Float32Array[]): void {
    const { statistics } = this.spec;
    channels.forEach((samples, channel) => {
      // Demucs's normalisation, sample by sample as the whole-song path does it.
      this.input[channel].append(statistics ? samples.map((sample) => (sample - statistics.mean) / statistics.scale) : samples);
    });
  }

  /**
   * Runs every window `valid` allows (it answers how many of a window's samples are real signal, 0 for
   * a window that cannot run yet) and returns, per model row, the pieces finished before the next one.
   */
  private async runWindows(valid: (offset: number) => number): Promise<Float32Array[][]> {
    const { segmentLength } = this.model;
    const rowCount = 2 * this.spec.sources.length;
    const rows: Float32Array[][] = Array.from({ length: rowCount }, () => []);
    for (let samples = valid(this.nextOffset); samples > 0; samples = valid(this.nextOffset)) {
      const offset = this.nextOffset;
      const window = new Float32Array(2 * segmentLength);
      this.input.forEach((queue, channel) => queue.read(offset, window.subarray(channel * segmentLength, (channel + 1) * segmentLength)));
      const output = await this.model.runWindow(window, segmentLength);
      const finished = this.overlapAdd.take(offset);
      finished.forEach((part, row) => rows[row].push(part));
      this.overlapAdd.add(offset, output, samples);
      this.nextOffset += this.stride;
      this.input.forEach((queue) => queue.dropBefore(this.nextOffset));
      this.windowsRun++;
      if (this.expectedWindows !== null) this.spec.onProgress?.({ fraction: Math.min(1, this.windowsRun / Math.max(1, this.expectedWindows)) });
    }
    return rows;
  }

  /** Finished model-rate rows, scaled back and converted to the song's rate; at the end, cut to its length. */
  private toStems(rows: Float32Array[][], final: boolean): StemSet {
    const { statistics, sources, sampleRate } = this.spec;
    const converted = rows.map((parts, row) => {
      const part = joinAll(parts);
      if (statistics) for (let i = 0; i < part.length; i++) part[i] = part[i] * statistics.scale + statistics.mean;
      const stream = this.fromModel[row];
      const head = stream.push(part);
      return final ? joinAll([head, stream.end()]) : head;
    });
    // Conversion rounds the model-rate length up: the song's own length decides (as many frames out as in).
    let frames = converted[0].length;
    if (final) frames = this.framesIn - this.framesOut;
    this.framesOut += frames;
    const fit = (samples: Float32Array) => (samples.length === frames ? samples : fitted(samples, frames));
    const stems = {} as StemSet;
    sources.forEach((stem, source) => {
      stems[stem] = { sampleRate, left: fit(converted[2 * source]), right: fit(converted[2 * source + 1]) };
    });
    return stems;
  }
}

function joinAll(parts: Float32Array[]): Float32Array {
  if (parts.length === 1) return parts[0];
  const whole = new Float32Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** Trimmed, or zero-extended, to `length`. */
function fitted(samples: Float32Array, length: number): Float32Array {
  const fit = new Float32Array(length);
  fit.set(samples.subarray(0, length));
  return fit;
}
