import type { OnsetEnvelope } from './onset';
import { pulseSignal } from './pulse';

/**
 * Which metrical level is the beat: the tempo the comb found, its half or its double.
 *
 * The autocorrelation comb cannot tell a tempo from its double (every second pulse of the faster one is a pulse
 * of the slower), so the level is chosen the way a listener taps along, from three cues, each a ratio between
 * candidates (their scale does not matter), multiplied:
 *
 * 1. Backbeat: in almost all popular music the snare (or clap) falls between kick strokes, one beat after them —
 *    kick on 1 and 3, snare on 2 and 4 — and what a listener taps is that kick–snare alternation. The cue is the
 *    cross-correlation of the kick pulse (flux below 150 Hz) and the snare pulse (band-balanced flux 150 Hz–2.5 kHz)
 *    at a lag of one beat period, both ways round (kick then snare, snare then kick), squared. At half the tempo
 *    the lag is two beats (kick to kick); at double tempo it is half a beat, where hi-hats and passing notes play.
 * 2. Evenness: beats are roughly equally strong, subdivisions alternate strong and weak. The candidate's pulses,
 *    taken as two interleaved grids of every other pulse, are compared (weaker / stronger) on the band-balanced
 *    flux, so that a thin kick counts as much as a loud snare (a kit's balance must not move the beat).
 * 3. A log-normal preference for tempi near PRIOR_CENTRE_BPM (σ = PRIOR_OCTAVES octave), as in Ellis's beat
 *    tracker and McKinney & Moelants's tapping experiments: listeners tap near 120 BPM when the music allows.
 * Score = preference × backbeat² × evenness; a level whose first two cues equal its double's (TIE) gives way
 * to the double.
 *
 * The cues and constants were chosen on development material only: the development set and variants of it
 * (its drums re-balanced towards the kick or away from it, whole mixes resampled by −4…+7 semitones, which
 * moves every song to other tempi) and new songs from the same generator at random tempi.
 */
export function chooseMetricalLevel(onsets: OnsetEnvelope, bpm: number, minBpm: number, maxBpm: number): number {
  const candidates = [bpm / 2, bpm, bpm * 2].filter((candidate) => candidate >= minBpm && candidate <= maxBpm);
  if (candidates.length < 2) return bpm;
  const cues = metricalCues(onsets, candidates);
  const score = (cue: MetricalCues) =>
    tempoPrior(cue.bpm) * Math.max(MIN_CUE, cue.backbeat) ** 2 * Math.max(MIN_CUE, cue.evenness);
  let chosen = 0;
  for (let i = 1; i < cues.length; i++) if (score(cues[i]) > score(cues[chosen])) chosen = i;
  // Where the cues cannot tell a level from its double (every pulse alike: a click track, four-on-the-floor
  // kicks with claps on every beat), the pulses are all beats, so the faster level is the beat.
  while (chosen + 1 < cues.length && sameCues(cues[chosen], cues[chosen + 1])) chosen++;
  return cues[chosen].bpm;
}

/** Whether two levels' backbeat cues are within TIE of each other (relative) and their evenness within TIE. */
function sameCues(a: MetricalCues, b: MetricalCues): boolean {
  return a.backbeat > 0 && Math.abs(b.backbeat / a.backbeat - 1) < TIE && Math.abs(b.evenness - a.evenness) < TIE;
}

const TIE = 0.05;

export interface MetricalCues {
  bpm: number;
  /** Kick–snare co-occurrence one beat apart (cue 1). */
  backbeat: number;
  /** Weaker / stronger of the interleaved grids of every other beat, 0..1 (cue 2). */
  evenness: number;
}

/** The backbeat and evenness cues of each candidate tempo. */
export function metricalCues(onsets: OnsetEnvelope, candidates: number[]): MetricalCues[] {
  const fps = onsets.framesPerSecond;
  const kick = centred(pulseSignal(onsets.low, fps));
  const snare = centred(pulseSignal(onsets.snare, fps));
  return candidates.map((bpm) => {
    const period = (60 * fps) / bpm;
    return { bpm, backbeat: backbeat(kick, snare, period), evenness: evenness(onsets.balanced, 2 * period) };
  });
}

const PRIOR_CENTRE_BPM = 120;
const PRIOR_OCTAVES = 1;
/** Floor of each cue, so that one cue at 0 (no kick at all, say) leaves the others to decide. */
const MIN_CUE = 1e-3;
const WINDOW_BEATS = 16;

/** Log-normal preference for tempi near PRIOR_CENTRE_BPM. */
export function tempoPrior(bpm: number): number {
  const octaves = Math.log2(bpm / PRIOR_CENTRE_BPM) / PRIOR_OCTAVES;
  return Math.exp(-0.5 * octaves * octaves);
}

function centred(signal: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < signal.length; i++) sum += signal[i];
  const mean = signal.length > 0 ? sum / signal.length : 0;
  return signal.map((value) => value - mean);
}

/**
 * Kick-to-snare and snare-to-kick co-occurrence one beat period apart: the positive products of the centred
 * pulses (both above their mean: a kick stroke and a snare stroke), summed over the three lags around the
 * period, per overlapping frame.
 */
function backbeat(kick: Float32Array, snare: Float32Array, period: number): number {
  let total = 0;
  for (let lag = Math.round(period) - 1; lag <= Math.round(period) + 1; lag++) {
    let sum = 0;
    for (let t = 0; t + lag < kick.length; t++) {
      const kickThenSnare = kick[t] * snare[t + lag];
      const snareThenKick = snare[t] * kick[t + lag];
      if (kickThenSnare > 0) sum += kickThenSnare;
      if (snareThenKick > 0) sum += snareThenKick;
    }
    total += lag < kick.length ? sum / (kick.length - lag) : 0;
  }
  return total;
}

/**
 * Weaker over stronger of the two interleaved grids of period `period` frames (every other pulse of the
 * candidate), 0..1. Measured in windows of 16 grid periods (half-overlapping) so that slight tempo drift cannot
 * smear the grid: within a window the phase is the one whose grids collect the most onset strength (each grid
 * point reads the strongest frame within ±1), and the two grids' sums are accumulated over windows.
 */
function evenness(strength: Float32Array, period: number): number {
  const beats = Math.min(WINDOW_BEATS, Math.floor(strength.length / period) - 1);
  if (beats < 2) return 0;
  let strong = 0;
  let weak = 0;
  const window = beats * period;
  for (let start = 0; start + window <= strength.length; start += window / 2) {
    const grids = bestAlignedGrids(strength, start, period, beats);
    strong += Math.max(grids.onGrid, grids.between);
    weak += Math.min(grids.onGrid, grids.between);
  }
  return strong > 0 ? weak / strong : 0;
}

/** Onset strength summed on the grid start + phase + k·period and on the grid shifted by half a period. */
function bestAlignedGrids(strength: Float32Array, start: number, period: number, beats: number) {
  let best = { onGrid: 0, between: 0 };
  for (let phase = 0; phase < period; phase++) {
    let onGrid = 0;
    let between = 0;
    for (let k = 0; k < beats; k++) {
      onGrid += peakNear(strength, start + phase + k * period);
      between += peakNear(strength, start + phase + (k + 0.5) * period);
    }
    if (onGrid + between > best.onGrid + best.between) best = { onGrid, between };
  }
  return best;
}

function peakNear(values: Float32Array, position: number): number {
  const centre = Math.round(position);
  let peak = 0;
  for (let i = centre - 1; i <= centre + 1; i++) if (i >= 0 && i < values.length && values[i] > peak) peak = values[i];
  return peak;
}
