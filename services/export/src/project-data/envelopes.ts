import { csvNumber, csvText } from './csv';

/** The envelopes' frame rate: TouchDesigner's default timeline rate, so one row is one frame there. */
export const ENVELOPE_FPS = 60;

/**
 * Measures a stream of stereo audio frame by frame: the mean square of its mono downmix ((L + R) / 2, as
 * the studio's meters hear a stem) over each 1/fps second. Frame k covers samples
 * [round(k·rate/fps), round((k+1)·rate/fps)), so any sample rate works; the last frame may be short and
 * is averaged over the samples it has. Holds one number per frame, never the audio.
 */
export class FrameMeter {
  private readonly power: number[] = [];
  private sum = 0;
  private count = 0;
  private sample = 0;
  private frameEnd: number;

  constructor(
    readonly sampleRate: number,
    readonly fps: number,
  ) {
    if (!(sampleRate > 0) || !(fps > 0)) throw new Error(`FrameMeter needs a positive rate (got ${sampleRate} Hz at ${fps} fps)`);
    this.frameEnd = this.boundary(1);
  }

  push(left: Float32Array, right: Float32Array): void {
    for (let i = 0; i < left.length; i++) {
      const mono = (left[i]! + right[i]!) / 2;
      this.sum += mono * mono;
      this.count++;
      this.sample++;
      if (this.sample === this.frameEnd) this.closeFrame();
    }
  }

  /** Mean square per frame (a partial last frame included). */
  finish(): Float64Array {
    if (this.count > 0) this.closeFrame();
    return Float64Array.from(this.power);
  }

  private closeFrame(): void {
    this.power.push(this.count > 0 ? this.sum / this.count : 0);
    this.sum = 0;
    this.count = 0;
    this.frameEnd = this.boundary(this.power.length + 1);
  }

  private boundary(frame: number): number {
    return Math.round((frame * this.sampleRate) / this.fps);
  }
}

export interface StemEnvelope {
  type: string;
  /** Mean square per frame of the stem as stored (before the mixer). */
  power: Float64Array;
  /** The mixer's gain for the stem (0 when muted or not soloed while others are). */
  gain: number;
}

/** RMS after the mixer's gain, as the studio's meter and `/stemdeck/stem/<type>_rms` read it, kept within 0..1. */
export const envelopeValue = (power: number, gain: number): number => Math.min(1, Math.sqrt(Math.max(0, power)) * gain);

/**
 * envelopes.csv: `time` (seconds, frame k at k/fps) and one column per stem with its RMS 0..1. As many rows
 * as the longest stem has frames; a shorter stem reads 0 past its end.
 */
export function envelopesCsv(stems: readonly StemEnvelope[], fps: number): string {
  const frames = Math.max(0, ...stems.map((stem) => stem.power.length));
  const rows = function* () {
    for (let frame = 0; frame < frames; frame++) {
      yield [csvNumber(frame / fps, 4), ...stems.map((stem) => csvNumber(envelopeValue(stem.power[frame] ?? 0, stem.gain), 4))];
    }
  };
  return csvText(['time', ...stems.map((stem) => stem.type)], rows());
}

/** The mix's mean square per frame, as the sum of the stems' (the stems are parts of one recording, close to uncorrelated). */
export function mixPower(stems: readonly { power: Float64Array }[]): Float64Array {
  const frames = Math.max(0, ...stems.map((stem) => stem.power.length));
  const mix = new Float64Array(frames);
  for (const stem of stems) for (let frame = 0; frame < stem.power.length; frame++) mix[frame] = (mix[frame] ?? 0) + (stem.power[frame] ?? 0);
  return mix;
}
