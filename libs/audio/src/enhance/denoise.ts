import { remedianFilter } from '../dsp/median';
import type { StereoSpectrogram } from '../dsp/stft';
import { NoiseProfileLearner, type NoiseMoments } from './noise-profile';
import { DEFAULT_GAIN_OPTIONS, SpectralGain, type SpectralGainOptions } from './spectral-gain';
import { StreamingStft } from './streaming-stft';

export interface DenoiseOptions {
  /** Share of the input's frames (the quietest) the noise profile is learned from. */
  quietShare: number;
  /** At most this many frames are held for the profile (bounds memory on long inputs: ~4 MB per 1000 at 2048 points). */
  maxProfileFrames: number;
  /** Frames over each sample when denoising (size / hop): 4 is 75 % overlap, 2 the least √Hann frames allow. */
  overlap: 2 | 4;
  gain: SpectralGainOptions;
}

export const DEFAULT_DENOISE_OPTIONS: DenoiseOptions = {
  quietShare: 0.1,
  maxProfileFrames: 2000,
  // 50 % overlap, as speech denoisers commonly run (WebRTC's, RNNoise): on the tuning set 0.1 dB SI-SDR below 75 %
  // overlap at half the cost.
  overlap: 2,
  gain: DEFAULT_GAIN_OPTIONS,
};

/** Frames per block of the streaming STFT: about 1.5 s at 44.1 kHz and 50 % overlap, ~2 MB in flight per channel pair. */
const BLOCK_FRAMES = 64;
/** Narrowest band of the quietness score, in bins (~170 Hz at 44.1 kHz). */
const MIN_BAND_BINS = 8;
/** Up to this coefficient of variation, a bin's quiet-frame power is taken as noise (see noiseLikeProfile). */
const NOISE_LIKE_CV = 1.4;
/** From this one, it is taken as music and not removed. */
const MUSIC_LIKE_CV = 2;
/** Running median across frequency of the noise floor: 27 bins (~580 Hz at 2048 points, 44.1 kHz). */
const ENVELOPE_STAGES = [3, 3, 3];
/** How far (power ratio, 3 dB) a bin of the profile may stand above that median. */
const PEAK_ALLOWANCE = 2;
/** Frame-to-frame correlation (see NoiseMoments) read fully as noise up to this, */
const NOISE_LIKE_PERSISTENCE = 0.35;
/** and as music from this one. */
const MUSIC_LIKE_PERSISTENCE = 0.6;
/** Share of the spectrum (mean weight over octave bands) from which a profile counts fully, and below which not at all. */
const NOISE_LIKE_SHARE = 0.9;
const MUSIC_LIKE_SHARE = 0.75;
/** Neighbours on each side the statistics are averaged over. */
const STAT_SMOOTHING_BINS = 2;
/** The level reported for a profile of nothing: no frame to learn from, or none that behaved like noise. */
export const SILENT_LEVEL_DB = -150;
/** Mean power per sample below which a frame counts as digital silence (−120 dBFS). */
const SILENT_SAMPLE_POWER = 1e-12;

/** STFT size for a sample rate: about 46 ms, a power of two (2048 points at 44.1 and 48 kHz). */
export function stftSizeFor(sampleRate: number): number {
  return Math.pow(2, Math.min(13, Math.max(8, Math.round(Math.log2(sampleRate * 0.046)))));
}

/** Splits interleaved 32-bit float PCM arriving in arbitrary chunks into planar channels, whole sample frames only. */
export class InterleavedPcm {
  private carry = Buffer.alloc(0);

  constructor(readonly channels: number) {}

  push(chunk: Buffer): Float32Array[] {
    let bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const frameBytes = 4 * this.channels;
    const usable = bytes.length - (bytes.length % frameBytes);
    this.carry = Buffer.from(bytes.subarray(usable));
    // Float32Array needs a 4-aligned offset; a pipe chunk usually is, one after a carried remainder is not.
    if (bytes.byteOffset % 4 !== 0) bytes = Buffer.from(bytes.subarray(0, usable));
    const samples = new Float32Array(bytes.buffer, bytes.byteOffset, usable / 4);
    const frames = usable / frameBytes;
    const planar = Array.from({ length: this.channels }, () => new Float32Array(frames));
    for (let i = 0, at = 0; i < frames; i++) for (let c = 0; c < this.channels; c++) planar[c][i] = samples[at++];
    return planar;
  }
}

/** Interleaves planar channels into 32-bit float little-endian PCM. */
export function interleave(planar: Float32Array[]): Buffer {
  const frames = planar[0]?.length ?? 0;
  const out = new Float32Array(frames * planar.length);
  for (let i = 0, at = 0; i < frames; i++) for (let c = 0; c < planar.length; c++) out[at++] = planar[c][i];
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Channels are processed in pairs, each pair through one stereo STFT with one gain per bin for both (so a stereo
 * image is not smeared by channels denoised differently); an odd last channel pairs with silence.
 */
function pairsOf(planar: Float32Array[]): Array<[Float32Array, Float32Array]> {
  const pairs: Array<[Float32Array, Float32Array]> = [];
  for (let c = 0; c < planar.length; c += 2) pairs.push([planar[c], planar[c + 1] ?? new Float32Array(planar[c].length)]);
  return pairs;
}

/** Writes each frame's power spectrum (left plus right) into `power` at row·bins; its total into `totals[row]`. */
function framePower(spec: StereoSpectrogram, frames: number, power: Float32Array, totals: Float64Array): void {
  const { bins, leftRe, leftIm, rightRe, rightIm } = spec;
  for (let row = 0; row < frames; row++) {
    let total = 0;
    for (let k = row * bins, end = k + bins; k < end; k++) {
      const p = leftRe[k] * leftRe[k] + leftIm[k] * leftIm[k] + rightRe[k] * rightRe[k] + rightIm[k] * rightIm[k];
      power[k] = p;
      total += p;
    }
    totals[row] = total;
  }
}

/**
 * Band edges (bins) for the quietness score: octaves above bin 1, none narrower than MIN_BAND_BINS (a narrow band's
 * power swings too much from frame to frame to rank frames by).
 */
function scoreBands(bins: number): number[] {
  const edges = [1];
  for (let edge = 1; edge < bins; ) {
    edge = Math.min(bins, Math.max(edge * 2, edge + MIN_BAND_BINS));
    edges.push(edge);
  }
  return edges;
}

/**
 * How loud a frame is for choosing the noise's frames: the sum over octave bands of the log of their power, so every
 * band counts alike whatever the noise's colour. (Ranked by total power, pink or brown noise would choose the frames
 * whose lowest bins happen to be quiet, and learn those bins too low.)
 */
function quietnessScore(power: Float32Array, offset: number, edges: number[]): number {
  let score = 0;
  for (let b = 0; b + 1 < edges.length; b++) {
    let band = 1e-30;
    for (let k = offset + edges[b], end = offset + edges[b + 1]; k < end; k++) band += power[k];
    score += Math.log(band);
  }
  return score;
}

/**
 * The quiet frames' mean power, kept where it behaves like noise and dropped where it does not. Noise (hiss, room
 * tone) is broadband and smooth across frequency, and there in every quiet frame as a random signal: its power in a
 * bin spreads about as much as its mean (coefficient of variation near 1, lower when the channels add independent
 * noise) and is drawn afresh each frame (frame-to-frame change 0.7 to 1.1, see NoiseMoments). A stem without pauses
 * has quiet frames that are soft music instead: peaked at its partials, its power coming and going (CV 1.6 to 3 in
 * most bins of clean synth, bass and mix stems), gliding (change near 0) or jumping at onsets and decays (change
 * far above 1). Removing that "profile" would eat the music. So:
 *  - no bin stands more than PEAK_ALLOWANCE above the profile's running median across frequency (a smooth floor;
 *    steady hum goes with the peaks, which this denoiser leaves alone);
 *  - per bin, the profile counts fully where both statistics read as noise and not at all where either reads as
 *    music, ramping between (both averaged over neighbouring bins: a few dozen frames give noisy estimates per bin);
 *  - as a whole, it counts only when noise-like bins make up nearly all of the spectrum (mean weight over octave
 *    bands, fully from NOISE_LIKE_SHARE, not at all below MUSIC_LIKE_SHARE). A vocal stem with noise, whose pauses
 *    are noise alone, reads 0.97 to 1. A music stem without pauses reads up to 0.7 clean (drums between hits, 15 s
 *    excerpts of the eval set's synth, bass, drum and mix stems), and 0.3 to 1 with pink noise 10 or 20 dB under it;
 *    there its quiet frames hold music as well as noise, and removing them cost the music more than the noise
 *    removed gained (SI-SDR −6 to +5 dB). So such stems are left alone, or cleaned only where the noise is strong
 *    enough to make the quiet frames noise.
 */
export function noiseLikeProfile(moments: NoiseMoments): Float32Array {
  const { mean } = moments;
  const bins = mean.length;
  const envelope = new Float32Array(bins);
  remedianFilter(mean, envelope, new Float32Array(bins), 1, bins, 'bins', ENVELOPE_STAGES);
  const { weights, share } = noiseLikeWeights(moments);
  const overall = ramp(MUSIC_LIKE_SHARE, NOISE_LIKE_SHARE, share);
  return mean.map((m, k) => Math.min(m, PEAK_ALLOWANCE * envelope[k]) * weights[k] * overall);
}

/**
 * How much each bin's quiet-frame statistics read as noise (0–1, see noiseLikeProfile), and the share of the
 * spectrum that does: the mean weight over octave bands, so that every octave counts alike.
 */
export function noiseLikeWeights({ variation, persistence }: NoiseMoments): { weights: Float32Array; share: number } {
  const bins = variation.length;
  const smoothVariation = smoothAcrossBins(variation);
  const smoothPersistence = smoothAcrossBins(persistence);
  const weights = new Float32Array(bins);
  for (let k = 0; k < bins; k++) {
    const spread = ramp(MUSIC_LIKE_CV, NOISE_LIKE_CV, smoothVariation[k]);
    const renewal = ramp(MUSIC_LIKE_PERSISTENCE, NOISE_LIKE_PERSISTENCE, smoothPersistence[k]);
    weights[k] = Math.min(spread, renewal);
  }
  const edges = scoreBands(bins);
  let share = 0;
  for (let b = 0; b + 1 < edges.length; b++) {
    let band = 0;
    for (let k = edges[b]; k < edges[b + 1]; k++) band += weights[k];
    share += band / (edges[b + 1] - edges[b]) / (edges.length - 1);
  }
  return { weights, share };
}

/** Mean over ±STAT_SMOOTHING_BINS neighbours. */
function smoothAcrossBins(values: Float32Array): Float32Array {
  const bins = values.length;
  const out = new Float32Array(bins);
  for (let k = 0; k < bins; k++) {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, k - STAT_SMOOTHING_BINS); j <= Math.min(bins - 1, k + STAT_SMOOTHING_BINS); j++) {
      sum += values[j];
      count++;
    }
    out[k] = sum / count;
  }
  return out;
}

/** 0 at `zero`, 1 at `one`, linear between and clamped outside (either order). */
function ramp(zero: number, one: number, value: number): number {
  return Math.min(1, Math.max(0, (value - zero) / (one - zero)));
}

/** A learned noise profile: power per bin for each channel pair, and its level. */
export interface NoiseProfile {
  /** STFT size the profile's bins belong to (size/2 + 1 bins). */
  size: number;
  /** One per channel pair (see pairsOf). */
  pairs: Float32Array[];
  /** The profile's level as an RMS per channel, dBFS (SILENT_LEVEL_DB for a profile of silence). */
  levelDb: number;
  /** Frames the profile is the mean of (per pair). */
  frames: number;
}

/**
 * Pass 1: learns the noise profile from the quietest frames of a stream, at 50 % overlap (enough to see every
 * stretch of the input; the profile is a mean over frames, not a resynthesis). Frames that reach past the input's
 * ends (they hold padding zeros) and frames of digital silence are not candidates.
 */
export class NoiseProfilePass {
  private readonly streams: StreamingStft[] = [];
  private readonly learners: NoiseProfileLearner[] = [];
  private readonly size: number;

  constructor(
    readonly channels: number,
    sampleRate: number,
    expectedSamples: number,
    options: DenoiseOptions = DEFAULT_DENOISE_OPTIONS,
  ) {
    const size = stftSizeFor(sampleRate);
    const hop = size / 2;
    this.size = size;
    const expectedFrames = Math.max(1, Math.ceil(expectedSamples / hop));
    const keep = Math.max(1, Math.min(options.maxProfileFrames, Math.round(expectedFrames * options.quietShare)));
    const pairCount = Math.ceil(channels / 2);
    const silentTotal = (SILENT_SAMPLE_POWER * size * size) / 4;
    const edges = scoreBands(size / 2 + 1);
    for (let p = 0; p < pairCount; p++) {
      const learner = new NoiseProfileLearner(size / 2 + 1, keep);
      const bins = size / 2 + 1;
      const power = new Float32Array(BLOCK_FRAMES * bins);
      const totals = new Float64Array(BLOCK_FRAMES);
      // The previous block's last frame, the one before this block's first.
      const lastOfBlock = new Float32Array(bins);
      const stream: StreamingStft = new StreamingStft(size, hop, BLOCK_FRAMES, (spec, firstFrame, frames) => {
        framePower(spec, frames, power, totals);
        for (let row = 0; row < frames; row++) {
          // Whole frames only, with a whole frame before them.
          const start = (firstFrame + row) * hop - (size - hop);
          if (start < hop || start + size > stream.length || totals[row] < silentTotal) continue;
          const [before, beforeOffset] = row > 0 ? [power, (row - 1) * bins] : [lastOfBlock, 0];
          learner.offer(power, row * bins, quietnessScore(power, row * bins, edges), before, beforeOffset);
        }
        lastOfBlock.set(power.subarray((frames - 1) * bins, frames * bins));
      }, false);
      this.streams.push(stream);
      this.learners.push(learner);
    }
  }

  push(planar: Float32Array[]): void {
    pairsOf(planar).forEach(([left, right], p) => this.streams[p].push(left, right));
  }

  end(): NoiseProfile {
    for (const stream of this.streams) stream.end();
    const pairs = this.learners.map((learner) => noiseLikeProfile(learner.moments()));
    // One-sided power spectrum of √Hann-windowed noise of variance σ²: Σ_k |X_k|² ≈ σ²·size²/4 per channel.
    let sum = 0;
    for (const profile of pairs) for (const p of profile) sum += p;
    const variance = (4 * sum) / (this.size * this.size) / this.channels;
    return {
      size: this.size,
      pairs,
      levelDb: Math.max(SILENT_LEVEL_DB, 10 * Math.log10(variance)),
      frames: Math.min(...this.learners.map((l) => l.heldFrames)),
    };
  }
}

/** Pass 2: applies the spectral gain to a stream; the output is the input's length and sample-aligned with it. */
export class DenoisePass {
  private readonly streams: StreamingStft[] = [];

  constructor(
    readonly channels: number,
    profile: NoiseProfile,
    options: DenoiseOptions = DEFAULT_DENOISE_OPTIONS,
  ) {
    const bins = profile.size / 2 + 1;
    const hop = profile.size / options.overlap;
    for (const noise of profile.pairs) {
      const gain = new SpectralGain(noise, options.gain);
      const power = new Float32Array(BLOCK_FRAMES * bins);
      const totals = new Float64Array(BLOCK_FRAMES);
      this.streams.push(
        new StreamingStft(profile.size, hop, BLOCK_FRAMES, (spec, _firstFrame, frames, mask) => {
          framePower(spec, frames, power, totals);
          for (let row = 0; row < frames; row++) gain.apply(power, row * bins, mask, row * bins);
        }, true),
      );
    }
  }

  push(planar: Float32Array[]): Float32Array[] {
    return this.collect(pairsOf(planar).map(([left, right], p) => this.streams[p].push(left, right)));
  }

  end(): Float32Array[] {
    return this.collect(this.streams.map((stream) => stream.end()));
  }

  private collect(outputs: Array<{ left: Float32Array; right: Float32Array }>): Float32Array[] {
    return outputs.flatMap((out) => [out.left, out.right]).slice(0, this.channels);
  }
}
