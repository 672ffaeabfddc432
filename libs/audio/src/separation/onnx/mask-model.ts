import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { StereoStft } from '../../dsp';
import type { StemType } from '../../types';
import type { ModelDescription } from './model-session';

/**
 * Stemdeck's own separation network (tools/separation-model) predicts soft masks from magnitudes; the
 * transforms around it run here. Its contract: input [1, 2, T, F] (|STFT| of left and right), output
 * [1, 4, T, F] (the sources' masks, which add up to one in every cell), with the STFT it was trained on.
 */
export const MASK_MODEL_SAMPLE_RATE = 44_100;
export const MASK_MODEL_FFT_SIZE = 4096;
export const MASK_MODEL_HOP = 1024;
export const MASK_MODEL_BINS = MASK_MODEL_FFT_SIZE / 2 + 1;
export const MASK_MODEL_SOURCES: readonly StemType[] = ['vocals', 'drums', 'bass', 'other'];

export interface MaskContract {
  inputName: string;
  outputName: string;
}

/** The model's names when it has the mask contract's shapes; null for any other model (e.g. a waveform one). */
export function readMaskContract(model: ModelDescription): MaskContract | null {
  if (model.inputs.length !== 1 || model.outputs.length !== 1) return null;
  const [input] = model.inputs;
  const [output] = model.outputs;
  const isMaskShape = (shape: ReadonlyArray<number | string>, channels: number) =>
    shape.length === 4 && shape[0] === 1 && shape[1] === channels && shape[3] === MASK_MODEL_BINS;
  if (input.elementType !== 'float32' || output.elementType !== 'float32') return null;
  return isMaskShape(input.shape, 2) && isMaskShape(output.shape, MASK_MODEL_SOURCES.length) ? { inputName: input.name, outputName: output.name } : null;
}

export interface MaskWindowOptions {
  /**
   * Also run the model on the window with its channels swapped and average the two masks (test-time
   * augmentation: the pan feature flips sign, so the network sees a second view of the same mix).
   */
  channelSwap: boolean;
}

/**
 * Separates one window of samples with a mask model, as a waveform model would: planar [left, right]
 * of `length` samples in, [source][channel][length] out. Each source is the mix's spectrum under its
 * mask, so the four add up to the window (to float rounding). Buffers are reused between windows.
 */
export class MaskWindowRunner {
  private readonly stft = new StereoStft(MASK_MODEL_FFT_SIZE, MASK_MODEL_HOP);

  constructor(
    private readonly session: InferenceSession,
    private readonly contract: MaskContract,
    private readonly options: MaskWindowOptions,
  ) {}

  async run(window: Float32Array, length: number): Promise<Float32Array> {
    const { stft } = this;
    const bins = stft.bins;
    const frames = stft.frameCount(length);
    const samples = { left: window.subarray(0, length), right: window.subarray(length, 2 * length) };
    const spec = stft.createSpectrogram(0, frames);
    stft.analyze(samples, spec);

    const cells = frames * bins;
    const magnitude = new Float32Array(2 * cells);
    for (let i = 0; i < cells; i++) {
      magnitude[i] = Math.hypot(spec.leftRe[i], spec.leftIm[i]);
      magnitude[cells + i] = Math.hypot(spec.rightRe[i], spec.rightIm[i]);
    }
    const masks = await this.masks(magnitude, frames);
    if (this.options.channelSwap) {
      const swapped = new Float32Array(2 * cells);
      swapped.set(magnitude.subarray(cells), 0);
      swapped.set(magnitude.subarray(0, cells), cells);
      const other = await this.masks(swapped, frames);
      for (let i = 0; i < masks.length; i++) masks[i] = 0.5 * (masks[i] + other[i]);
    }

    const sources = MASK_MODEL_SOURCES.length;
    const out = new Float32Array(sources * 2 * length);
    const grids = Array.from({ length: sources }, (_, s) => {
      const grid = masks.subarray(s * cells, (s + 1) * cells);
      return { left: grid, right: grid };
    });
    const outs = Array.from({ length: sources }, (_, s) => ({
      left: out.subarray((2 * s) * length, (2 * s + 1) * length),
      right: out.subarray((2 * s + 1) * length, (2 * s + 2) * length),
    }));
    stft.synthesize(spec, 0, frames, grids, outs, 0, length);
    return out;
  }

  private async masks(magnitude: Float32Array, frames: number): Promise<Float32Array> {
    const { inputName, outputName } = this.contract;
    const result = await this.session.run({ [inputName]: new Tensor('float32', magnitude, [1, 2, frames, MASK_MODEL_BINS]) });
    const output = result[outputName];
    const expected = [1, MASK_MODEL_SOURCES.length, frames, MASK_MODEL_BINS];
    if (output.dims.join() !== expected.join()) throw new Error(`model output "${outputName}" has shape [${output.dims.join(', ')}]; expected [${expected.join(', ')}]`);
    return output.data as Float32Array;
  }
}
