import { autocorrelation } from './autocorrelation';
import { pulseSignal } from './pulse';
import { chooseMetricalLevel, tempoPrior } from './tempo-octave';
import { sampleAt } from './math';
import type { HarmonicChange } from './harmony';
import type { OnsetEnvelope } from './onset';

/**
 * Global tempo from the onset-strength envelope.
 *
 * 1. Pulse signal (pulse.ts): the onset peaks above their local average.
 * 2. Autocorrelation of that signal (one FFT): a steady beat of period P frames gives peaks at P, 2P, 3P, …
 * 3. Comb score for each candidate tempo on a 0.5 BPM grid over 60–200 BPM: the mean autocorrelation at the
 *    first four multiples of its period (a true beat period is supported by all of them, a chance peak is not),
 *    times the broad log-normal preference for tempi near 120 BPM (σ = 1 octave) of step 4.
 * 4. Metrical level (tempo-octave.ts): of the chosen tempo, its half and its double (those in range), the one a
 *    musician would tap: how the cymbals, kick and snare subdivide each candidate's beat, beats of even
 *    strength, how often the chords change in its beats (harmony.ts), and a preference over tempo, weighed by a
 *    model fitted on labelled training material.
 * 5. Refinement: the comb maximised again within ±3 % on a 0.01 BPM grid, now over every multiple of the period
 *    up to 20 s of lag (the more periods, the sharper the peak), with linear interpolation between lags. The
 *    result is rounded to 0.1 BPM.
 * Pulse clarity is the comb score above the chance level (the squared mean of the pulse signal, what the
 * autocorrelation of a signal without periodicity tends to) relative to the power above it. Without a pulse
 * (silence; a held tone, whose flux is only numerical ripple; clarity under 5 %) the tempo is the conventional
 * TEMPO_FALLBACK_BPM.
 */
export interface TempoEstimate {
  bpm: number;
  /** Beat period in onset frames (unrounded). */
  periodFrames: number;
  /** 0..1: how clearly there is a beat (see above). */
  pulseClarity: number;
  /** The pulse signal's autocorrelation, for the meter analysis. */
  autocorrelation: Float64Array;
}

export const TEMPO_FALLBACK_BPM = 120;
const MIN_BPM = 60;
const MAX_BPM = 200;
const COMB_PERIODS = 4;
const REFINE_LAG_SECONDS = 20;
const MIN_CLARITY = 0.05;
/** Onset flux is in log-level units relative to the track's own level: real onsets give an RMS of 0.1–1. */
const MIN_PULSE_POWER = 0.01 ** 2;

export function estimateTempo(onsets: OnsetEnvelope, harmony: HarmonicChange): TempoEstimate {
  const fps = onsets.framesPerSecond;
  const { acf, best, clarityAt } = combSearch(onsets);
  const period = (bpm: number) => (60 * fps) / bpm;
  if (best === null) return { bpm: TEMPO_FALLBACK_BPM, periodFrames: period(TEMPO_FALLBACK_BPM), pulseClarity: 0, autocorrelation: acf };
  const chosen = chooseMetricalLevel(onsets, harmony, best, MIN_BPM, MAX_BPM);
  const refined = refine(acf, chosen, period);
  return {
    bpm: Math.round(refined * 10) / 10,
    periodFrames: period(refined),
    pulseClarity: clarityAt(period(refined)),
    autocorrelation: acf,
  };
}

/** The metrical levels the level choice weighs for these onsets (steps 1–3 above); none without a pulse. */
export function metricalCandidates(onsets: OnsetEnvelope): number[] {
  const { best } = combSearch(onsets);
  return best === null ? [] : [best / 2, best, best * 2].filter((bpm) => bpm >= MIN_BPM && bpm <= MAX_BPM);
}

/** Steps 1–3: the comb's best tempo on the 0.5 BPM grid, or null when there is no pulse (see above). */
function combSearch(onsets: OnsetEnvelope) {
  const fps = onsets.framesPerSecond;
  const pulse = pulseSignal(onsets.strength, fps);
  const acf = autocorrelation(pulse, Math.ceil(REFINE_LAG_SECONDS * fps));
  const baseline = squaredMean(pulse);
  const clarityAt = (periodFrames: number) =>
    Math.max(0, Math.min(1, (combScore(acf, periodFrames, COMB_PERIODS) - baseline) / (acf[0] - baseline)));
  if (acf[0] < MIN_PULSE_POWER || !(acf[0] > baseline)) return { acf, best: null, clarityAt };
  const period = (bpm: number) => (60 * fps) / bpm;
  let best = MIN_BPM;
  let bestScore = -Infinity;
  for (let bpm = MIN_BPM; bpm <= MAX_BPM; bpm += 0.5) {
    const score = combScore(acf, period(bpm), COMB_PERIODS) * tempoPrior(bpm);
    if (score > bestScore) [best, bestScore] = [bpm, score];
  }
  return { acf, best: clarityAt(period(best)) < MIN_CLARITY ? null : best, clarityAt };
}

function squaredMean(signal: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < signal.length; i++) sum += signal[i];
  const mean = signal.length > 0 ? sum / signal.length : 0;
  return mean * mean;
}

/** Mean autocorrelation at the first `periods` multiples of `periodFrames` that the autocorrelation covers. */
function combScore(acf: Float64Array, periodFrames: number, periods: number): number {
  let sum = 0;
  let used = 0;
  for (let k = 1; k <= periods && k * periodFrames < acf.length - 1; k++, used++) sum += sampleAt(acf, k * periodFrames);
  return used > 0 ? sum / used : 0;
}

function refine(acf: Float64Array, bpm: number, period: (bpm: number) => number): number {
  let best = bpm;
  let bestScore = -Infinity;
  const periods = Math.max(COMB_PERIODS, Math.floor((acf.length - 1) / period(bpm)));
  for (let candidate = bpm * 0.97; candidate <= bpm * 1.03; candidate += 0.01) {
    const score = combScore(acf, period(candidate), periods);
    if (score > bestScore) [best, bestScore] = [candidate, score];
  }
  return Math.min(MAX_BPM, Math.max(MIN_BPM, best));
}
