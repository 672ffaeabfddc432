import FFT = require('fft.js');
import { sqrtHannWindow } from './window';

/** Planar stereo samples (a StereoAudio without its sample rate). */
export interface StereoSamples {
  left: Float32Array;
  right: Float32Array;
}

/**
 * The short-time spectra of both channels over a run of frames. Bins 0..size/2 (the non-negative
 * frequencies of a real signal); every grid is frame-major: the value of `bin` in row `row` is at
 * `row * bins + bin`. Row 0 is the absolute frame `firstFrame` of the track.
 */
export interface StereoSpectrogram {
  firstFrame: number;
  frames: number;
  bins: number;
  leftRe: Float32Array;
  leftIm: Float32Array;
  rightRe: Float32Array;
  rightIm: Float32Array;
}

/**
 * Stereo STFT/ISTFT with a √Hann window for analysis and synthesis, so that masking cross-fades smoothly
 * and an unmasked spectrogram reconstructs the input exactly (up to float rounding).
 *
 * Frames: frame f covers samples [f·hop − (size − hop), f·hop + hop), zero outside the track, so every
 * sample of the track lies under exactly size/hop frames (no special edge handling in the overlap-add).
 *
 * Speed: both channels go through ONE complex FFT. The forward transform packs z = left + i·right and
 * splits Z into the two Hermitian spectra; the inverse packs the two masked spectra the same way and
 * takes the channels from the real and imaginary parts. The inverse runs as a forward FFT of the
 * conjugate spectrum, with the 1/size scale folded into the synthesis window.
 */
export class StereoStft {
  readonly bins: number;
  private readonly fft: FFT;
  private readonly window: Float64Array;
  /** Synthesis window × overlap-add normalisation × the inverse FFT's 1/size. */
  private readonly synthesisWindow: Float64Array;
  // Plain arrays from fft.js itself: its transform is fastest (and stays monomorphic) on these.
  private readonly timeBuffer: number[];
  private readonly freqBuffer: number[];

  constructor(
    readonly size: number,
    readonly hop: number,
  ) {
    if (size % hop !== 0 || size / hop < 2) throw new Error(`STFT hop ${hop} must divide size ${size} at least twice`);
    this.bins = size / 2 + 1;
    this.fft = new FFT(size);
    this.window = sqrtHannWindow(size);
    // Σ over the size/hop overlapping frames of hann = size / (2·hop).
    const gain = (2 * hop) / size / size;
    this.synthesisWindow = this.window.map((w) => w * gain);
    this.timeBuffer = this.fft.createComplexArray();
    this.freqBuffer = this.fft.createComplexArray();
  }

  /** Frames needed so that each of `length` samples lies under size/hop frames. */
  frameCount(length: number): number {
    return Math.ceil(length / this.hop) + this.size / this.hop - 1;
  }

  /** First sample of absolute frame `frame` (negative for the frames straddling the track's start). */
  frameStart(frame: number): number {
    return frame * this.hop - (this.size - this.hop);
  }

  createSpectrogram(firstFrame: number, frames: number): StereoSpectrogram {
    const cells = frames * this.bins;
    return {
      firstFrame,
      frames,
      bins: this.bins,
      leftRe: new Float32Array(cells),
      leftIm: new Float32Array(cells),
      rightRe: new Float32Array(cells),
      rightIm: new Float32Array(cells),
    };
  }

  /** Fills every row of `spec` with the spectra of absolute frames spec.firstFrame.. of `audio`. */
  analyze(audio: StereoSamples, spec: StereoSpectrogram): void {
    const { size, bins, window } = this;
    const z = this.timeBuffer;
    const Z = this.freqBuffer;
    const length = audio.left.length;
    for (let row = 0; row < spec.frames; row++) {
      const start = this.frameStart(spec.firstFrame + row);
      const from = Math.max(0, -start);
      const to = Math.min(size, length - start);
      if (from > 0 || to < size) z.fill(0);
      for (let n = from; n < to; n++) {
        const w = window[n];
        z[2 * n] = w * audio.left[start + n];
        z[2 * n + 1] = w * audio.right[start + n];
      }
      this.fft.transform(Z, z);
      // X_left[k] = (Z[k] + conj Z[size−k]) / 2,  X_right[k] = (Z[k] − conj Z[size−k]) / 2i.
      const base = row * bins;
      spec.leftRe[base] = Z[0];
      spec.leftIm[base] = 0;
      spec.rightRe[base] = Z[1];
      spec.rightIm[base] = 0;
      for (let k = 1; k < bins; k++) {
        const mirror = 2 * (size - k);
        const re = Z[2 * k];
        const im = Z[2 * k + 1];
        const mirrorRe = Z[mirror];
        const mirrorIm = Z[mirror + 1];
        spec.leftRe[base + k] = 0.5 * (re + mirrorRe);
        spec.leftIm[base + k] = 0.5 * (im - mirrorIm);
        spec.rightRe[base + k] = 0.5 * (im + mirrorIm);
        spec.rightIm[base + k] = 0.5 * (mirrorRe - re);
      }
    }
  }

  /**
   * Resynthesises absolute frames [fromFrame, toFrame) of `spec` once per mask pair: outs[s] receives the
   * overlap-add of the spectrum with each bin scaled by masks[s] (grids laid out like the spectrogram),
   * restricted to samples [fromSample, toSample). Contributions outside that range are dropped, so callers
   * that own disjoint sample ranges can write into one shared output; a sample is complete once every frame
   * over it has been added. Frames are the outer loop so that each frame's spectrum is read from memory
   * once for all outputs.
   */
  synthesize(
    spec: StereoSpectrogram,
    fromFrame: number,
    toFrame: number,
    masks: readonly { left: Float32Array; right: Float32Array }[],
    outs: readonly StereoSamples[],
    fromSample: number,
    toSample: number,
  ): void {
    for (let frame = fromFrame; frame < toFrame; frame++) {
      const base = (frame - spec.firstFrame) * this.bins;
      const start = this.frameStart(frame);
      for (let s = 0; s < masks.length; s++) {
        this.packMaskedFrame(spec, base, masks[s].left, masks[s].right);
        this.fft.transform(this.timeBuffer, this.freqBuffer);
        this.overlapAdd(outs[s], start, Math.max(0, fromSample - start), Math.min(this.size, toSample - start));
      }
    }
  }

  /**
   * Writes the conjugate of Y = A + i·B into freqBuffer, where A and B are the masked left and right
   * spectra of one frame (Hermitian, with real bins 0 and size/2, where both halves' formulas agree).
   */
  private packMaskedFrame(spec: StereoSpectrogram, base: number, maskLeft: Float32Array, maskRight: Float32Array): void {
    const { size, bins } = this;
    const { leftRe, leftIm, rightRe, rightIm } = spec;
    const Y = this.freqBuffer;
    Y[0] = maskLeft[base] * leftRe[base];
    Y[1] = -maskRight[base] * rightRe[base];
    for (let k = 1; k < bins; k++) {
      const gainLeft = maskLeft[base + k];
      const gainRight = maskRight[base + k];
      const aRe = gainLeft * leftRe[base + k];
      const aIm = gainLeft * leftIm[base + k];
      const bRe = gainRight * rightRe[base + k];
      const bIm = gainRight * rightIm[base + k];
      Y[2 * k] = aRe - bIm;
      Y[2 * k + 1] = -aIm - bRe;
      const mirror = 2 * (size - k);
      Y[mirror] = aRe + bIm;
      Y[mirror + 1] = aIm - bRe;
    }
  }

  /** Adds frame samples [from, to) of timeBuffer (left real, right imaginary) into out at `start`. */
  private overlapAdd(out: StereoSamples, start: number, from: number, to: number): void {
    const { synthesisWindow } = this;
    const y = this.timeBuffer;
    const outLeft = out.left;
    const outRight = out.right;
    for (let n = from; n < to; n++) {
      const w = synthesisWindow[n];
      outLeft[start + n] += w * y[2 * n];
      outRight[start + n] -= w * y[2 * n + 1];
    }
  }
}
