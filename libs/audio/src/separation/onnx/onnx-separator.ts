import { STEM_TYPES, type EngineName, type SeparationProgress, type Separator, type StemSet, type StemType, type StereoAudio } from '../../types';
import { mixStatistics, type MixStatistics } from './mix-normalization';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { createFastSeparator } from '../fast';
import { MASK_MODEL_SAMPLE_RATE, MASK_MODEL_SOURCES, MaskWindowRunner, readMaskContract } from './mask-model';
import { describeSession, openModelSession } from './model-session';
import { OnnxSeparationStream, type LoadedModel } from './onnx-stream';
import { readSeparationContract, type SeparationContract } from './separation-contract';

export type OnnxEngineName = Extract<EngineName, 'hybrid' | 'quality'>;

export interface OnnxSeparatorSpec {
  modelPath: string;
  /** The rate a waveform model was trained at; default 44100 (a mask model states its own). */
  sampleRate?: number;
  /** Window length; default: the model's fixed input length, or 7.8 s (HTDemucs's) if it has none. */
  segmentSeconds?: number;
  /** Fraction of each window shared with the next; default 0.25 (Demucs's). */
  overlap?: number;
  /** Stem of each model output, in output order; default Demucs's (a mask model's: its own order). */
  sources?: readonly StemType[];
  /** Mask models only: average the masks of the mix and of its channel-swapped copy (test-time augmentation). */
  channelSwap?: boolean;
  /**
   * Blend each window's stems with the fast (DSP) engine's stems of the same window: per stem, the share
   * of the fast engine's (0 = the model alone); 'other' is then the mix minus the other three (its own
   * share is not used), so the stems add up to the mix.
   */
  fastBlend?: Readonly<Record<StemType, number>>;
  /** Scale the mix to zero mean / unit deviation before the model and back after, as Demucs does. */
  normalize?: boolean;
  /** onnxruntime intra-op threads; default: every core. */
  threads?: number;
}

export const DEMUCS_SOURCE_ORDER: readonly StemType[] = ['drums', 'bass', 'other', 'vocals'];
const DEFAULT_MODEL_RATE = 44_100;
const DEFAULT_OVERLAP = 0.25;
const DEFAULT_SEGMENT_SECONDS = 7.8;

export interface OnnxStreamOptions {
  /**
   * The whole song's mix statistics (mixStatistics over its left and right at its own rate), needed
   * when the spec normalises: a stream cannot know them before its end.
   */
  statistics?: MixStatistics | null;
  /** Expected length in frames, only for progress; the stream's real end decides. */
  expectedFrames?: number;
  onProgress?: (progress: SeparationProgress) => void;
}

/**
 * Runs a separation model over a whole song, window by window: an HTDemucs-style waveform model
 * ([1, 2, T] -> [1, 4, 2, T]), or Stemdeck's own mask model (magnitudes in, masks out; see
 * mask-model.ts), which the file's input and output shapes tell apart. The model session is opened
 * once, on `load` or the first `separate`, and reused.
 */
export class OnnxSeparator implements Separator {
  private readonly modelRate: number;
  private readonly overlap: number;
  private readonly sources: readonly StemType[] | null;
  private loading?: Promise<LoadedModel & { modelRate: number }>;

  /** Checks the spec's own values; the model file is only read by `load`/`separate`. */
  constructor(
    readonly engine: OnnxEngineName,
    private readonly spec: OnnxSeparatorSpec,
  ) {
    this.sources = spec.sources ? checkSources(spec.sources) : null;
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

  /** The whole mixture at once: the stream below fed one piece, so both give the same samples. */
  async separate(mixture: StereoAudio, onProgress?: (progress: SeparationProgress) => void): Promise<StemSet> {
    const { left, right, sampleRate } = mixture;
    if (left.length !== right.length) throw new RangeError(`left and right differ in length (${left.length} vs ${right.length})`);
    const statistics = this.spec.normalize && left.length > 0 ? mixStatistics(left, right) : null;
    const stream = await this.openStream(sampleRate, { statistics, expectedFrames: left.length, onProgress });
    const head = await stream.push(mixture);
    const tail = await stream.end();
    const stems = {} as StemSet;
    for (const stem of STEM_TYPES) {
      stems[stem] = { sampleRate, left: joined(head[stem].left, tail[stem].left), right: joined(head[stem].right, tail[stem].right) };
    }
    return stems;
  }

  /**
   * A separation fed piece by piece (`push` each chunk of the song, then `end`): each call returns the
   * stems it completed, so memory stays at a few windows whatever the song's length.
   */
  async openStream(sampleRate: number, options: OnnxStreamOptions = {}): Promise<OnnxSeparationStream> {
    if (this.spec.normalize && !options.statistics) throw new RangeError('this separator normalises the mix: give the whole song\'s statistics');
    const model = await this.loaded();
    return new OnnxSeparationStream(model, {
      sources: model.sources,
      overlap: this.overlap,
      sampleRate,
      modelRate: model.modelRate,
      statistics: this.spec.normalize ? options.statistics! : null,
      expectedFrames: options.expectedFrames,
      onProgress: options.onProgress,
    });
  }

  private loaded(): Promise<LoadedModel & { modelRate: number }> {
    this.loading ??= this.openModel().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async openModel(): Promise<LoadedModel & { modelRate: number }> {
    const session = await openModelSession(this.spec.modelPath, { threads: this.spec.threads });
    try {
      const description = describeSession(session);
      const mask = readMaskContract(description);
      if (mask) {
        const sources = this.sources ?? MASK_MODEL_SOURCES;
        if (sources.some((stem, i) => stem !== MASK_MODEL_SOURCES[i])) throw new RangeError(`a mask model's sources are ${MASK_MODEL_SOURCES.join(', ')}`);
        if (this.spec.normalize) throw new RangeError('a mask model takes the mix as it is (normalize must be off)');
        const runner = new MaskWindowRunner(session, mask, { channelSwap: this.spec.channelSwap ?? false });
        const segmentLength = Math.round((this.spec.segmentSeconds ?? DEFAULT_SEGMENT_SECONDS) * MASK_MODEL_SAMPLE_RATE);
        const runWindow = blended((window, length) => runner.run(window, length), sources, this.spec.fastBlend, MASK_MODEL_SAMPLE_RATE);
        return { session, sources, modelRate: MASK_MODEL_SAMPLE_RATE, segmentLength, runWindow };
      }
      if (this.spec.channelSwap) throw new RangeError('channelSwap applies to mask models only');
      const sources = this.sources ?? DEMUCS_SOURCE_ORDER;
      const contract = readSeparationContract(this.spec.modelPath, description, sources.length);
      const segmentLength = chooseSegmentLength(this.spec, contract, this.modelRate);
      const runWindow = blended(waveformWindow(session, contract, sources.length), sources, this.spec.fastBlend, this.modelRate);
      return { session, sources, modelRate: this.modelRate, segmentLength, runWindow };
    } catch (error) {
      await session.release();
      throw error;
    }
  }
}

/**
 * The model's window blended with the fast engine's separation of the same samples (in this thread: the
 * model's own thread already runs off the service's event loop). The window overlap-add around it
 * cross-fades both engines' edges alike.
 */
function blended(runWindow: LoadedModel['runWindow'], sources: readonly StemType[], weights: OnnxSeparatorSpec['fastBlend'], sampleRate: number): LoadedModel['runWindow'] {
  if (!weights || sources.every((stem) => !weights[stem])) return runWindow;
  for (const stem of sources) {
    if (!(weights[stem] >= 0 && weights[stem] <= 1)) throw new RangeError(`fastBlend.${stem} must be in [0, 1], got ${weights[stem]}`);
  }
  const fast = createFastSeparator({ threads: 0 });
  return async (window, length) => {
    const model = await runWindow(window, length);
    const dsp = await fast.separate({ sampleRate, left: window.subarray(0, length), right: window.subarray(length, 2 * length) });
    const row = (source: number, c: number) => model.subarray((2 * source + c) * length, (2 * source + c + 1) * length);
    const rest = sources.indexOf('other');
    sources.forEach((stem, source) => {
      if (source === rest) return;
      const w = weights[stem];
      (['left', 'right'] as const).forEach((channel, c) => {
        const samples = row(source, c);
        const theirs = dsp[stem][channel];
        for (let i = 0; i < length; i++) samples[i] = (1 - w) * samples[i] + w * theirs[i];
      });
    });
    // Shares that differ per stem would not add up to the mix: 'other' takes what the rest leave.
    for (let c = 0; c < 2; c++) {
      const mix = window.subarray(c * length, (c + 1) * length);
      const other = row(rest, c);
      other.set(mix);
      sources.forEach((_, source) => {
        if (source === rest) return;
        const samples = row(source, c);
        for (let i = 0; i < length; i++) other[i] -= samples[i];
      });
    }
    return model;
  };
}

/** Runs a waveform model on one window: [1, 2, T] in, [1, sources, 2, T] out. */
function waveformWindow(session: InferenceSession, contract: SeparationContract, sourceCount: number): LoadedModel['runWindow'] {
  const { inputName, outputName } = contract;
  return async (window, length) => {
    const output = (await session.run({ [inputName]: new Tensor('float32', window, [1, 2, length]) }))[outputName];
    const expected = [1, sourceCount, 2, length];
    if (output.dims.join() !== expected.join()) {
      throw new Error(`model output "${outputName}" has shape [${output.dims.join(', ')}]; expected [${expected.join(', ')}]`);
    }
    return output.data as Float32Array;
  };
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

function joined(a: Float32Array, b: Float32Array): Float32Array {
  if (b.length === 0) return a;
  const whole = new Float32Array(a.length + b.length);
  whole.set(a);
  whole.set(b, a.length);
  return whole;
}
