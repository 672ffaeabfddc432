import type { StereoAudio } from '../types';
import { bandEnergies } from './bands';
import { chroma } from './chroma';
import { describeTimbre } from './descriptors';
import { spotifyFeatures, type SpotifyFeatures } from './features';
import { estimateKey } from './key';
import { LoudnessMeter, measureLoudness, type LoudnessMeasurement } from './loudness';
import { roundTo } from './math';
import { estimateBeatsPerBar } from './meter';
import { onsetEnvelope } from './onset';
import { harmonicChange } from './harmony';
import { findPartials, partialsFramesPerSecond } from './partials';
import { decimateToAnalysisRate, downmixToMono, type MonoSignal } from './mono-signal';
import { estimateTempo } from './tempo';

export interface AudioAnalysis {
  /** 60–200 BPM, one decimal; 120 when there is no pulse. */
  bpm: number;
  /** One of KEY_NAMES, e.g. 'F# minor' ('C major' when spotifyFeatures.key is −1: nothing tonal). */
  key: string;
  /** Integrated loudness (ITU-R BS.1770-4), one decimal. */
  loudnessLufs: number;
  spotifyFeatures: SpotifyFeatures;
}

/**
 * Tempo, key, loudness and Spotify-style features of a track. Deterministic (no randomness, no clock) and
 * synchronous; a 4-minute 44.1 kHz stereo song takes a fraction of a second.
 *
 * Loudness reads the full-rate stereo signal. Everything else reads the mid channel decimated to ~11 kHz, through
 * two short-time analyses: third-octave band energies every ~11.6 ms (onsets → tempo, meter; timbre) and
 * spectral peaks in back-to-back ~0.37 s windows (chroma → key; pitch stability).
 */
export function analyzeAudio(audio: StereoAudio): AudioAnalysis {
  const mono: MonoSignal = { sampleRate: audio.sampleRate, samples: downmixToMono(audio) };
  return analyzeParts(measureLoudness(audio), mono, audio.left.length / audio.sampleRate);
}

/** The longest stretch the tempo, key and timbre analyses read (whole songs up to this length). */
export const ANALYSIS_EXCERPT_SECONDS = 480;
/** The excerpt's cap in samples, so a high sample rate does not make it larger (8 min at 48 kHz). */
const ANALYSIS_EXCERPT_MAX_SAMPLES = 480 * 48_000;

/**
 * The same analysis fed in chunks, with memory bounded whatever the length: loudness (integrated and
 * range) and the duration cover the whole recording (LoudnessMeter keeps 8 bytes per 100 ms); tempo,
 * key, meter and the timbre features read one contiguous excerpt of the mid channel of at most
 * ANALYSIS_EXCERPT_SECONDS — the whole song when it is shorter (so a song's analysis is exactly
 * analyzeAudio's), else the stretch centred on the middle of the expected length (a DJ mix's or live
 * set's intro and outro are the least typical parts). The excerpt is at most 92 MB of float samples.
 */
export class StreamingAnalysis {
  private readonly loudness: LoudnessMeter;
  private readonly capacity: number;
  private readonly excerptFrom: number;
  private excerpt = new Float32Array(0);
  private excerptFilled = 0;
  private frames = 0;

  constructor(
    readonly sampleRate: number,
    expectedFrames = 0,
  ) {
    this.loudness = new LoudnessMeter(sampleRate);
    this.capacity = Math.min(Math.round(ANALYSIS_EXCERPT_SECONDS * sampleRate), ANALYSIS_EXCERPT_MAX_SAMPLES);
    this.excerptFrom = expectedFrames > this.capacity ? Math.floor((expectedFrames - this.capacity) / 2) : 0;
    if (expectedFrames > 0) this.reserve(Math.min(this.capacity, expectedFrames));
  }

  /** Frames pushed so far. */
  get length(): number {
    return this.frames;
  }

  push(chunk: StereoAudio): void {
    const { left, right } = chunk;
    this.loudness.push(left, right);
    // The excerpt is contiguous and chunks come in order: the next sample it needs is never behind this chunk.
    const from = this.excerptFrom + this.excerptFilled - this.frames;
    const to = Math.min(left.length, from + this.capacity - this.excerptFilled);
    if (from < to) {
      this.reserve(this.excerptFilled + to - from);
      for (let i = from; i < to; i++) this.excerpt[this.excerptFilled++] = 0.5 * (left[i] + right[i]);
    }
    this.frames += left.length;
  }

  private reserve(size: number): void {
    if (size <= this.excerpt.length) return;
    const grown = new Float32Array(Math.min(this.capacity, Math.max(size, 2 * this.excerpt.length)));
    grown.set(this.excerpt.subarray(0, this.excerptFilled));
    this.excerpt = grown;
  }

  finish(): AudioAnalysis {
    const samples = this.excerpt.subarray(0, this.excerptFilled);
    return analyzeParts(this.loudness.measure(), { sampleRate: this.sampleRate, samples }, this.frames / this.sampleRate);
  }
}

function analyzeParts(loudness: LoudnessMeasurement, mono: MonoSignal, durationSeconds: number): AudioAnalysis {
  const signal = decimateToAnalysisRate(mono);
  const bands = bandEnergies(signal);
  const onsets = onsetEnvelope(bands);
  const partials = findPartials(signal);
  const tempo = estimateTempo(onsets, harmonicChange(partials, partialsFramesPerSecond(signal.sampleRate)));
  const key = estimateKey(chroma(partials));
  const features = spotifyFeatures({
    timbre: describeTimbre(bands, onsets, partials),
    loudness,
    tempo,
    key,
    beatsPerBar: estimateBeatsPerBar(onsets, tempo),
    highFrequencyShare: highFrequencyShare(mono, signal),
    durationSeconds,
  });
  return { bpm: tempo.bpm, key: key.name, loudnessLufs: roundTo(loudness.integratedLufs, 1), spotifyFeatures: features };
}

/** Share of the mid channel's power that the decimation removed: what lies above the analysis band. */
function highFrequencyShare(full: MonoSignal, analysed: MonoSignal): number {
  const fullPower = meanSquare(full.samples);
  return fullPower > 0 ? Math.max(0, 1 - meanSquare(analysed.samples) / fullPower) : 0;
}

function meanSquare(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return samples.length > 0 ? sum / samples.length : 0;
}
