import type { TimbreDescriptors } from './descriptors';
import type { KeyEstimate } from './key';
import type { LoudnessMeasurement } from './loudness';
import { clamp01, roundTo, unitRamp } from './math';
import type { TempoEstimate } from './tempo';

/** Spotify's audio-features object: same names, ranges and conventions. */
export interface SpotifyFeatures {
  danceability: number;
  energy: number;
  valence: number;
  acousticness: number;
  instrumentalness: number;
  liveness: number;
  speechiness: number;
  /** Integrated loudness, dB (LUFS). */
  loudness: number;
  tempo: number;
  /** Pitch class of the tonic, 0 = C … 11 = B; −1 when no key was detected. */
  key: number;
  /** 1 major, 0 minor. */
  mode: 0 | 1;
  time_signature: number;
  duration_ms: number;
}

export interface FeatureInputs {
  timbre: TimbreDescriptors;
  loudness: LoudnessMeasurement;
  tempo: TempoEstimate;
  key: KeyEstimate;
  beatsPerBar: 3 | 4;
  /** Share of the full-band power above the analysis band (~5 kHz): cymbals, breath, distortion, air. */
  highFrequencyShare: number;
  durationSeconds: number;
}

/**
 * Spotify-style features as documented deterministic functions of measured descriptors.
 *
 * Spotify computes its features with trained models we do not have; these are transparent heuristics that follow
 * Spotify's published definitions and move the same way, not reproductions of its numbers. Every 0–1 feature
 * combines sub-scores — a weighted mean, or a product where one cue gates another — each a clamped linear ramp
 * (unitRamp) of one descriptor between a value that means "none of this" and one that means "all of it"; the
 * ramps' ends were set where they spread the synthetic eval set and the synthetic test signals. Rounded to 0.01.
 */
export function spotifyFeatures(inputs: FeatureInputs): SpotifyFeatures {
  const scores = subScores(inputs);
  return {
    danceability: roundTo(danceability(scores, inputs.beatsPerBar), 2),
    energy: roundTo(energy(scores), 2),
    valence: roundTo(valence(scores), 2),
    acousticness: roundTo(acousticness(scores), 2),
    instrumentalness: roundTo(instrumentalness(scores), 2),
    liveness: roundTo(liveness(scores), 2),
    speechiness: roundTo(speechiness(scores), 2),
    loudness: roundTo(inputs.loudness.integratedLufs, 1),
    tempo: inputs.tempo.bpm,
    key: inputs.key.tonicPitchClass,
    mode: inputs.key.mode,
    time_signature: inputs.beatsPerBar,
    duration_ms: Math.round(inputs.durationSeconds * 1000),
  };
}

/** Each descriptor mapped onto 0..1 once; the features combine these. */
interface SubScores {
  /** Integrated loudness from −30 (quiet) to −6 LUFS (loud modern master). */
  loud: number;
  /** Integrated loudness from −40 (barely there) to −25 LUFS (an ordinary listening level). */
  audible: number;
  /** Loudness range from 15 LU (dynamic) down to 4 LU (heavily compressed). */
  compressed: number;
  /** Onsets per second from 1 (sparse) to 8 (busy). */
  busy: number;
  /** Power above ~5 kHz from 1 % to 12 % of the total. */
  airy: number;
  /** Spectral flatness from 0.05 (clean tones) to 0.4 (noise-like). */
  noisy: number;
  /** Pulse clarity from 0.15 to 0.7. */
  pulse: number;
  /** Closeness of the tempo to 118 BPM (log-Gaussian, σ = 0.35 octave); 0 without a pulse. */
  danceTempo: number;
  /** Tempo from 70 to 150 BPM; 0.5 without a pulse. */
  fast: number;
  /** 0.5 ± half the key strength: towards 1 for a clear major key, towards 0 for a clear minor one. */
  major: number;
  /** Spectral centroid from 400 Hz (dark) to 1800 Hz (bright). */
  bright: number;
  /** Power below 150 Hz from 10 % to 50 %. */
  bassy: number;
  /** Typical spectral change over 0.1 s from 9 dB (drums, plucked and struck notes) down to 3 dB (sustained pads). */
  steady: number;
  /** Share of strongly smeared (pitch-moving) partials from 12 % to 20 %: a singing or speaking voice. */
  voice: number;
  /** Syllable-rate share of the vocal-band modulation from 0.35 to 0.75. */
  syllabic: number;
  /** Quietest-decile level above 1 kHz relative to the median, from −6 dB (a studio mix) to −2 dB (a crowd's constant noise). */
  ambience: number;
}

function subScores({ timbre, loudness, tempo, key, highFrequencyShare }: FeatureInputs): SubScores {
  const hasPulse = tempo.pulseClarity > 0;
  const keyStrength = key.tonicPitchClass < 0 ? 0 : clamp01(key.strength);
  return {
    loud: unitRamp(loudness.integratedLufs, -30, -6),
    audible: unitRamp(loudness.integratedLufs, -40, -25),
    compressed: 1 - unitRamp(loudness.rangeLu, 4, 15),
    busy: unitRamp(timbre.onsetRate, 1, 8),
    airy: unitRamp(highFrequencyShare, 0.01, 0.12),
    noisy: unitRamp(timbre.spectralFlatness, 0.05, 0.4),
    pulse: unitRamp(tempo.pulseClarity, 0.15, 0.7),
    danceTempo: hasPulse ? Math.exp(-0.5 * (Math.log2(tempo.bpm / 118) / 0.35) ** 2) : 0,
    fast: hasPulse ? unitRamp(tempo.bpm, 70, 150) : 0.5,
    major: 0.5 + (key.mode === 1 ? 0.5 : -0.5) * keyStrength,
    bright: unitRamp(timbre.spectralCentroidHz, 400, 1800),
    bassy: unitRamp(timbre.lowEndShare, 0.1, 0.5),
    steady: 1 - unitRamp(timbre.spectralVariationDb, 3, 9),
    voice: unitRamp(timbre.unstablePartialShare, 0.12, 0.2),
    syllabic: unitRamp(timbre.syllabicModulation, 0.35, 0.75),
    ambience: unitRamp(timbre.ambientFloorDb, -6, -2),
  };
}

/**
 * Energy — "a perceptual measure of intensity and activity" (Spotify: dynamic range, perceived loudness, timbre,
 * onset rate, general entropy). Loud, busy, compressed, bright and noisy music scores high; a quiet, sparse,
 * dynamic recording low. Loudness weighs most: it is what listeners' intensity ratings follow best. The timbre
 * cues (compression, air, noisiness) only count for material played at an ordinary level (`audible`): a faint
 * hiss is flat and noisy without being energetic.
 */
function energy(s: SubScores): number {
  const timbre = 0.375 * s.compressed + 0.375 * s.airy + 0.25 * s.noisy;
  return clamp01(0.4 * s.loud + 0.2 * s.busy + 0.4 * s.audible * timbre);
}

/**
 * Danceability — "tempo, rhythm stability, beat strength, overall regularity". A clear, regular pulse (pulse
 * clarity of the onset autocorrelation) weighs most; then a tempo near the 100–130 BPM that dance music favours,
 * counted only as far as there is a pulse to dance to; then a strong low end (kick and bass drive dancing).
 * Triple meter is discounted by 20 %: waltzes are danceable, but not in the sense meant here.
 */
function danceability(s: SubScores, beatsPerBar: 3 | 4): number {
  const meter = beatsPerBar === 4 ? 1 : 0.8;
  return clamp01((0.55 * s.pulse + 0.25 * s.danceTempo * s.pulse + 0.2 * s.bassy) * meter);
}

/**
 * Valence — "musical positiveness". Mode is the classic cue (major happy, minor sad, scaled by how clearly the
 * key was found), then tempo (faster is happier) and brightness of timbre. A crude proxy: lyrics, harmony beyond
 * the mode and performance carry much of what listeners hear as positive.
 */
function valence(s: SubScores): number {
  return clamp01(0.45 * s.major + 0.3 * s.fast + 0.25 * s.bright);
}

/**
 * Acousticness — "confidence the track is acoustic". Without a trained instrument classifier this scores the
 * absence of production traits typical of electronic and heavily produced music: sustained unchanging spectra
 * (synth pads, drones), loud and compressed masters, and strong content above 5 kHz (synth leads, distortion,
 * bright electronic drums). Acoustic recordings decay, vary and are mastered with more dynamics. (Compression
 * counts only at an ordinary level, as in energy.)
 */
function acousticness(s: SubScores): number {
  return clamp01(1 - (0.35 * s.steady + 0.25 * s.loud + 0.2 * s.audible * s.compressed + 0.2 * s.airy));
}

/**
 * Instrumentalness — "predicts whether a track contains no vocals" (above 0.5: probably instrumental). A voice,
 * sung or spoken, is the one common source whose pitch moves continuously — vibrato, scoops, glides — while
 * keyboards, fretted and synthesized instruments hold their notes steady. So the share of strongly smeared
 * partials in the vocal range (300 Hz–1.5 kHz) is taken as vocal evidence. A weak one: vibrato strings, chorused
 * pads and pitch-bent leads read as voice too, and a voice mixed low under loud chords barely moves it. On the
 * synthetic eval set the sung mixtures average 0.35 and the same songs without their vocal stem 0.79 (each song's
 * instrumental scores higher than its mixture), but single tracks overlap: read it as a tendency, not a verdict.
 */
function instrumentalness(s: SubScores): number {
  return clamp01(1 - s.voice);
}

/**
 * Liveness — "presence of an audience". A crowd and a hall fill the gaps between notes with broadband noise and
 * reverberation, so the quietest moments above 1 kHz stay close to the typical level; a studio mix drops below
 * it (by 5–10 dB on the synthetic eval set's dense mixes). Scaled so a studio track reads 0.1–0.3 (Spotify: above 0.8
 * means very likely live). Only a constant noise floor is detected: a quiet, clean live recording reads as studio.
 */
function liveness(s: SubScores): number {
  return clamp01(0.1 + 0.8 * s.ambience);
}

/**
 * Speechiness — "presence of spoken words". Speech modulates the 250–3500 Hz band at the syllable rate
 * (≈ 3–6 Hz) irregularly, with moving pitch, and without a steady musical pulse. The score is the syllabic
 * modulation share, weighted by how voice-like the partials are and by the absence of a beat: sung music with a
 * beat stays low, a spoken recording scores high. Speech over a beat is pulled down with the music, so rap reads
 * lower than Spotify's 0.33–0.66 "music and speech" band.
 */
function speechiness(s: SubScores): number {
  return clamp01(s.syllabic * (0.4 + 0.6 * s.voice) * (1 - 0.8 * s.pulse));
}
