import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { STEM_TYPES, type EngineName, type SeparationProgress, type Separator, type StemSet, type StemType, type StereoAudio } from '../../types';
import { denormalizeInPlace, mixStatistics, normalized } from './mix-normalization';
import { describeSession, openModelSession } from './model-session';
import { Resampler } from './resample';
import { OverlapAdd, readSegment, segmentOffsets } from './segments';
import { readSeparationContract, type SeparationContract } from './separation-contract';

export type OnnxEngineName = Extract<EngineName, 'hybrid' | 'quality'>;

export interface OnnxSeparatorSpec {
  modelPath: string;
  /** The rate the model was trained at; default 44100. */
  sampleRate?: number;
  /** Window length; default: the model's fixed input length, or 7.8 s (HTDemucs's) if it has none. */
  segmentSeconds?: number;
  /** Fraction of each window shared with the next; default 0.25 (Demucs's). */
  overlap?: number;
  /** Stem of each model output, in output order; default Demucs's. */
  sources?: readonly StemType[];
  /** Scale the mix to zero mean / unit deviation before the model and back after, as Demucs does. */
  normalize?: boolean;
  /** onnxruntime intra-op threads; default: every core. */
  threads?: number;
}

export const DEMUCS_SOURCE_ORDER: readonly StemType[] = ['drums', 'bass', 'other', 'vocals'];
const DEFAULT_MODEL_RATE = 44_100;
const DEFAULT_OVERLAP = 0.25;
const DEFAULT_SEGMENT_SECONDS = 7.8;
const EMPTY_ROW = new Float32Array(0);

/** What `load` learns from the model file: how to call it and how long each window is. */
interface LoadedModel {
  session: InferenceSession;
  contract: SeparationContract;
  /** Window length in samples at the model's rate. */
  segmentLength: number;
}

/**
 * Runs an HTDemucs-style waveform model ([1, 2, T] -> [1, 4, 2, T]) over a whole song, window by
 * window. The model session is opened once, on `load` or the first `separate`, and reused.
 */
export class OnnxSeparator implements Separator {
  private readonly modelRate: number;
  private readonly overlap: number;
  private readonly sources: readonly StemType[];
  private loading?: Promise<LoadedModel>;

  /** Checks the spec's own values; the model file is only read by `load`/`separate`. */
  constructor(
    readonly engine: OnnxEngineName,
    private readonly spec: OnnxSeparatorSpec,
  ) {
    this.sources = checkSources(spec.sources ?? DEMUCS_SOURCE_ORDER);
    this.modelRate = spec.sampleRate ?? DEFAULT_MODEL_RATE;
    if (!(Number.isInteger(this.modelRate) && this.modelRate > 0)) throw new RangeError(`sampleRate must be a positive integer, got ${this.modelRate}`);
    this.overlap = spec.overlap ?? DEFAULT_OVERLAP;
    if (!(this.overlap >= 0 && this.overlap < 1)) throw new RangeError(`overlap must be in [0, 1), got ${this.overlap}`);
    if (spec.segmentSeconds !== undefined && !(spec.segmentSeconds > 0)) {
      throw new RangeError(`segmentSeconds must be positive, got ${spec.segmentSeconds}`);
    }
  }

  /**
   * Opens the model and checks its inputs/outputs against the spec (call at boot to fail early).
   * Rejects with OnnxModelError or RangeError; a failed load is retried by the next call.
   */
  async load(): Promise<void> {
    await this.loaded();
  }

  /** Frees the native session; a later `separate` opens it again. */
  async release(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    const model = await loading?.catch(() => undefined); // a failed load left nothing to free
    await model?.session.release();
  }

  async separate(mixture: StereoAudio, onProgress?: (progress: SeparationProgress) => void): Promise<StemSet> {
    const { left, right, sampleRate } = mixture;
    if (left.length !== right.length) throw new RangeError(`left and right differ in length (${left.length} vs ${right.length})`);
    const model = await this.loaded();
    const toModelRate = rateConverter(sampleRate, this.modelRate);
    let channels = [toModelRate(left), toModelRate(right)];
    const statistics = this.spec.normalize && channels[0].length > 0 ? mixStatistics(channels[0], channels[1]) : null;
    if (statistics) channels = channels.map((channel) => normalized(channel, statistics));

    const rows = await this.runWindows(model, channels, onProgress);
    if (statistics) rows.forEach((row) => denormalizeInPlace(row, statistics));

    const toMixtureRate = rateConverter(this.modelRate, sampleRate);
    const takeRow = (index: number) => {
      const row = rows[index];
      rows[index] = EMPTY_ROW; // let go of each model-rate row once converted: long songs need a lot of memory
      return fitLength(toMixtureRate(row), left.length);
    };
    const stems = {} as StemSet;
    this.sources.forEach((stem, source) => {
      stems[stem] = { sampleRate, left: takeRow(2 * source), right: takeRow(2 * source + 1) };
    });
    return stems;
  }

  private loaded(): Promise<LoadedModel> {
    this.loading ??= this.openModel().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async openModel(): Promise<LoadedModel> {
    const session = await openModelSession(this.spec.modelPath, { threads: this.spec.threads });
    try {
      const contract = readSeparationContract(this.spec.modelPath, describeSession(session), this.sources.length);
      return { session, contract, segmentLength: chooseSegmentLength(this.spec, contract, this.modelRate) };
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** Model output rows (source * 2 + channel) over the whole signal, at the model's rate. */
  private async runWindows(
    { session, contract, segmentLength }: LoadedModel,
    channels: Float32Array[],
    onProgress?: (progress: SeparationProgress) => void,
  ): Promise<Float32Array[]> {
    const { overlap, sources } = this;
    const { inputName, outputName } = contract;
    const length = channels[0].length;
    const offsets = segmentOffsets(length, segmentLength, overlap);
    const overlapAdd = new OverlapAdd(2 * sources.length, length, segmentLength);
    for (const [index, offset] of offsets.entries()) {
      const input = new Tensor('float32', readSegment(channels, offset, segmentLength), [1, 2, segmentLength]);
      const output = (await session.run({ [inputName]: input }))[outputName];
      const expected = [1, sources.length, 2, segmentLength];
      if (output.dims.join() !== expected.join()) {
        throw new Error(`model output "${outputName}" has shape [${output.dims.join(', ')}]; expected [${expected.join(', ')}]`);
      }
      overlapAdd.add(offset, output.data as Float32Array);
      onProgress?.({ fraction: (index + 1) / offsets.length });
    }
    if (offsets.length === 0) onProgress?.({ fraction: 1 });
    return overlapAdd.result();
  }
}

function checkSources(sources: readonly StemType[]): readonly StemType[] {
  const complete = sources.length === STEM_TYPES.length && STEM_TYPES.every((stem) => sources.includes(stem));
  if (!complete) throw new RangeError(`sources must name each of ${STEM_TYPES.join(', ')} once, got [${sources.join(', ')}]`);
  return sources;
}

function chooseSegmentLength(spec: OnnxSeparatorSpec, contract: SeparationContract, modelRate: number): number {
  const requested = spec.segmentSeconds === undefined ? null : Math.max(1, Math.round(spec.segmentSeconds * modelRate));
  const fixed = contract.fixedLength;
  if (fixed !== null && requested !== null && requested !== fixed) {
    throw new RangeError(
      `${spec.modelPath} takes exactly ${fixed} samples (${fixed / modelRate} s at ${modelRate} Hz); segmentSeconds ${spec.segmentSeconds} gives ${requested}`,
    );
  }
  return fixed ?? requested ?? Math.round(DEFAULT_SEGMENT_SECONDS * modelRate);
}

/** Converts whole channels between two rates; the identity (no copy) when they are equal. */
function rateConverter(fromRate: number, toRate: number): (samples: Float32Array) => Float32Array {
  if (fromRate === toRate) return (samples) => samples;
  const resampler = new Resampler(fromRate, toRate);
  return (samples) => resampler.process(samples);
}

/** Resampling rounds lengths up; trim (or zero-extend) back to the mixture's exact length. */
function fitLength(samples: Float32Array, length: number): Float32Array {
  if (samples.length === length) return samples;
  const fitted = new Float32Array(length);
  fitted.set(samples.subarray(0, length));
  return fitted;
}
