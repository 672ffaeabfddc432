import { availableParallelism } from 'node:os';
import { StereoStft, type StereoSamples } from '../../dsp';
import type { SeparationProgress, Separator, StemSet, StereoAudio } from '../../types';
import { fastParameters, type FastTuning } from './parameters';
import { SegmentSeparator, type StemBuffers } from './separate-segment';
import { maxAnalysisFrames, planSegments } from './segments';
import { segmentWorkerAvailable, separateInWorkers } from './worker-pool';

export interface FastSeparatorOptions {
  /**
   * Worker threads to separate on; 0 separates in the calling thread (between segments it yields to the
   * event loop). Default: one per core, up to 4, or 0 on a single core. Without the compiled worker script
   * (running from sources) separation always happens in the calling thread. The result is identical either way.
   */
  threads?: number;
  /** Tuning constants to use instead of the engine's own (those that do not depend on the sample rate): for tuning benchmarks. */
  tuning?: FastTuning;
}

const MAX_DEFAULT_THREADS = 4;

/**
 * Stemdeck's own DSP separator. The track is cut into segments of STFT frames (segments.ts), each
 * separated independently (separate-segment.ts): soft masks from harmonic/percussive median filtering,
 * the stereo centre, frequency bands, the lead vocal's pitch comb and its reverb tail (masks.ts) are
 * applied to the mixture's spectrum and resynthesised as vocals, drums and bass; 'other' is the mixture
 * minus those three, so the four stems always add back up to the mixture. Segments run on worker threads
 * when the compiled worker script is there, else in the calling thread; the output is the same.
 */
export class FastSeparator implements Separator {
  readonly engine = 'fast' as const;

  constructor(private readonly options: FastSeparatorOptions = {}) {}

  /**
   * `onSamplesDone(from, to, stems)` is called as each segment finishes, with the sample range that is
   * final in `stems` from then on (ranges come in completion order, not track order), so a caller can
   * write the stems out while the rest is still being separated.
   */
  async separate(
    mixture: StereoAudio,
    onProgress?: (progress: SeparationProgress) => void,
    onSamplesDone?: (from: number, to: number, stems: StemSet) => void,
  ): Promise<StemSet> {
    const length = mixture.left.length;
    if (mixture.right.length !== length) throw new Error('left and right channels differ in length');
    if (!(mixture.sampleRate > 0)) throw new Error(`invalid sample rate ${mixture.sampleRate}`);
    const params = { ...fastParameters(mixture.sampleRate), ...this.options.tuning };
    const stft = new StereoStft(params.fftSize, params.hop);
    const segments = planSegments({
      totalFrames: stft.frameCount(length),
      overlap: params.fftSize / params.hop,
      segmentFrames: params.segmentFrames,
      marginFrames: params.marginFrames,
    });
    const threads = Math.min(this.threadCount(), segments.length);
    const shared = threads > 0;
    const input = shared && !isShared(mixture) ? toShared(mixture) : mixture;
    const out: StemBuffers = {
      vocals: allocateStereo(length, shared),
      drums: allocateStereo(length, shared),
      bass: allocateStereo(length, shared),
      other: allocateStereo(length, shared),
    };
    const { sampleRate } = mixture;
    const stems: StemSet = {
      vocals: { sampleRate, ...out.vocals },
      drums: { sampleRate, ...out.drums },
      bass: { sampleRate, ...out.bass },
      other: { sampleRate, ...out.other },
    };
    const report = (done: number, segment?: number) => {
      if (segment !== undefined && onSamplesDone) {
        const { ownFrom, ownTo } = segments[segment];
        onSamplesDone(ownFrom * params.hop, Math.min(length, ownTo * params.hop), stems);
      }
      onProgress?.({ fraction: segments.length ? done / segments.length : 1 });
    };

    report(0);
    if (shared) {
      await separateInWorkers({ params, segments, mixture: input, out }, threads, report);
    } else {
      const separator = new SegmentSeparator(params, maxAnalysisFrames(segments));
      for (let i = 0; i < segments.length; i++) {
        separator.separate(input, segments[i], out);
        report(i + 1, i);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return stems;
  }

  private threadCount(): number {
    if (!segmentWorkerAvailable()) return 0;
    const cores = availableParallelism();
    return this.options.threads ?? (cores > 1 ? Math.min(cores, MAX_DEFAULT_THREADS) : 0);
  }
}

export function createFastSeparator(options?: FastSeparatorOptions): FastSeparator {
  return new FastSeparator(options);
}

function allocateStereo(length: number, shared: boolean): StereoSamples {
  const channel = () => (shared ? new Float32Array(new SharedArrayBuffer(4 * length)) : new Float32Array(length));
  return { left: channel(), right: channel() };
}

function isShared(audio: StereoSamples): boolean {
  // By tag, not instanceof: a buffer from another realm (a test sandbox) is still shared memory.
  const tag = (buffer: ArrayBufferLike) => Object.prototype.toString.call(buffer);
  return tag(audio.left.buffer) === '[object SharedArrayBuffer]' && tag(audio.right.buffer) === '[object SharedArrayBuffer]';
}

function toShared(audio: StereoSamples): StereoSamples {
  const copy = allocateStereo(audio.left.length, true);
  copy.left.set(audio.left);
  copy.right.set(audio.right);
  return copy;
}
