import type { StereoAudio } from '../types';
import { bandEnergies } from './bands';
import { chroma } from './chroma';
import { describeTimbre } from './descriptors';
import { spotifyFeatures, type SpotifyFeatures } from './features';
import { estimateKey } from './key';
import { measureLoudness } from './loudness';
import { roundTo } from './math';
import { estimateBeatsPerBar } from './meter';
import { onsetEnvelope } from './onset';
import { findPartials } from './partials';
import { decimateToAnalysisRate, downmixToMono, type MonoSignal } from './resample';
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
  const loudness = measureLoudness(audio);
  const mono: MonoSignal = { sampleRate: audio.sampleRate, samples: downmixToMono(audio) };
  const signal = decimateToAnalysisRate(mono);
  const bands = bandEnergies(signal);
  const onsets = onsetEnvelope(bands);
  const tempo = estimateTempo(onsets);
  const partials = findPartials(signal);
  const key = estimateKey(chroma(partials));
  const features = spotifyFeatures({
    timbre: describeTimbre(bands, onsets, partials),
    loudness,
    tempo,
    key,
    beatsPerBar: estimateBeatsPerBar(onsets, tempo),
    highFrequencyShare: highFrequencyShare(mono, signal),
    durationSeconds: audio.left.length / audio.sampleRate,
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
