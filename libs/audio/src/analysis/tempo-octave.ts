import { autocorrelation } from './autocorrelation';
import type { HarmonicChange } from './harmony';
import type { OnsetEnvelope } from './onset';
import { pulseSignal } from './pulse';

/**
 * Which metrical level is the beat: the tempo the comb found, its half or its double.
 *
 * The autocorrelation comb cannot tell a tempo from its double (every second pulse of the faster one is a pulse
 * of the slower), so the level is chosen the way a musician taps along, from how each part of the kit and the
 * mix repeats at the candidate's beat and at its subdivisions:
 *
 * 1. Cymbals (the onsets from 2.5 kHz up: hi-hats, ride, shakers, tambourines) mostly play eighths or sixteenths
 *    of the tapped beat: a trap groove at 140 has its hats in eighths of 140, a hip-hop groove at 73 in eighths
 *    of 73, although both put a snare about 0.85 s after the kick. Cue: the high band's pulse periodicity at one
 *    beat, half a beat and a quarter beat of the candidate.
 * 2. Kick (below 150 Hz) and snare (150 Hz–2.5 kHz, bands balanced) periodicity at one beat and half a beat: a
 *    snare band that keeps pulsing between the candidate's beats says the candidate is too slow.
 * 3. Evenness: beats are roughly equally strong, subdivisions alternate strong and weak. The candidate's pulses,
 *    taken as two interleaved grids of every other pulse, are compared (weaker / stronger) on the band-balanced
 *    flux, so that a thin kick counts as much as a loud snare.
 * 4. A preference over tempo (log2 of the tempo relative to 120 BPM, linear and squared), learned from the same
 *    labels.
 * 5. Harmonic rhythm (harmony.ts): how the chord and bass changes repeat at four and at eight of the candidate's
 *    beats. Songs change chord once a bar or once every two bars, so a slow groove whose drums subdivide like
 *    a fast one's (a one-drop, a steppers, a ballad) still changes chord every 4 of its own beats, every 8 of its
 *    double's. A recording without held notes (drums alone) has no such cue: it counts at its mean.
 * Each periodicity is the pulse signal's autocorrelation summed over ±1 frame around the lag, over three times
 * its value at lag 0, and every cue enters as its log. Each candidate gets a score from its cues (levelScore: a
 * linear term plus four tanh units, so a cue can count differently depending on the others); the highest wins.
 * The kick–snare backbeat one beat apart, the cue this choice was built on before, is gone: a half-time groove
 * (snare on 3) is the same pattern as a backbeat at half the tempo, so it pointed the wrong way exactly where it
 * had to decide.
 *
 * LEVEL_MODEL (a linear term and four tanh units over the standardised cues, a softmax over the candidates) was
 * fitted (testing/fit-level-weights.ts: Adam, L2 0.01, a fixed seed) on training material only, never on a
 * held-out set: the development set (counted twice), the synthetic signals of the analysis specs (click tracks,
 * drum grooves; counted twice), two tempo tuning sets of 50 songs each (`generate.js --set tempo --seed 1|2`: the
 * development sounds playing the grooves musicians play — straight backbeats, half-time feels, trap, one-drop
 * and steppers, shuffles and swing, two-beats and train beats, four-on-the-floor, breakbeats, slow jams, sparse
 * ballads, songs without drums — each labelled with the tempo a musician taps, bench/src/eval-set/tuning/styles.ts)
 * and 248 songs of the wide training family (`generate.js --set wide --seed 1` and `--seed 4`: the same grooves and
 * styles played by other soundfonts and FM banks, so that the cues are weighed across more than one family of
 * kits). The drums-alone trap and one-drop grooves of tempo.spec.ts are in the fit too (since the harmony cues:
 * they are the material where those cues are absent).
 */
export function chooseMetricalLevel(onsets: OnsetEnvelope, harmony: HarmonicChange, bpm: number, minBpm: number, maxBpm: number): number {
  const candidates = [bpm / 2, bpm, bpm * 2].filter((candidate) => candidate >= minBpm && candidate <= maxBpm);
  if (candidates.length < 2) return bpm;
  return candidates[bestLevel(levelFeatures(onsets, harmony, candidates))];
}

/** Index of the candidate the model scores highest (the first of equals); each candidate scored once. */
export function bestLevel(features: LevelFeatures[], model: LevelModel = LEVEL_MODEL): number {
  const scores = features.map((candidate) => levelScore(candidate, model));
  return scores.indexOf(Math.max(...scores));
}

export interface LevelFeatures {
  bpm: number;
  /** log2(bpm / 120). */
  octaves: number;
  /** Squared octaves. */
  octavesSquared: number;
  /** Log of weaker / stronger of the interleaved grids of every other beat (0 = equal). */
  evenness: number;
  /** Log periodicity of the high band (cymbals) at one beat, half a beat and a quarter beat. */
  cymbalsBeat: number;
  cymbalsHalf: number;
  cymbalsQuarter: number;
  /** Log periodicity of the low band (kick) and of the snare band at one beat and half a beat. */
  kickBeat: number;
  kickHalf: number;
  snareBeat: number;
  snareHalf: number;
  /** Log periodicity of the harmony's changes (harmony.ts) at four and at eight beats. */
  harmonyFour: number;
  harmonyEight: number;
}

/** The cues the level model reads, in the order of its weights. */
export const LEVEL_CUES = [
  'octaves',
  'octavesSquared',
  'evenness',
  'cymbalsBeat',
  'cymbalsHalf',
  'cymbalsQuarter',
  'kickBeat',
  'kickHalf',
  'snareBeat',
  'snareHalf',
  'harmonyFour',
  'harmonyEight',
] as const satisfies readonly Exclude<keyof LevelFeatures, 'bpm'>[];

/**
 * A candidate's score: its cues standardised (minus `mean`, over `scale`), then a linear term plus a few tanh
 * units, so that a cue can weigh differently depending on the others (the cymbals' subdivisions count for more
 * at slow candidates, say). Scores compare candidates of one song only (a softmax over them when fitted).
 */
export interface LevelModel {
  mean: number[];
  scale: number[];
  linear: number[];
  /** One row of weights per cue, one column per unit. */
  hidden: number[][];
  hiddenBias: number[];
  output: number[];
}

/** Fitted as described above (testing/fit-level-weights.ts prints it). */
export const LEVEL_MODEL: LevelModel = {
  mean: [-0.1589, 0.297, -0.3456, -1.017, -1.4755, -2.7349, -1.4305, -1.8278, -1.0601, -1.4904, -1.2618, -1.219],
  scale: [0.5213, 0.2747, 0.4904, 0.4183, 0.9363, 1.5438, 0.6723, 0.9523, 0.497, 1.0351, 0.4615, 0.3618],
  linear: [0.6443, -0.2279, 0.1312, 0.0499, 0.2802, 0.2562, -0.197, -0.1744, 0.2272, -0.3396, 0.3345, 0.0175],
  hidden: [
    [-0.0547, -1.1335, 0.6051, -0.3482], // octaves
    [0.0481, 0.3262, -0.2901, 0.1574], // octavesSquared
    [0.5559, -0.0483, -0.102, 0.1019], // evenness
    [0.081, -0.0628, -0.0821, 0.6408], // cymbalsBeat
    [0.0856, -0.7488, 0.4082, 0.1702], // cymbalsHalf
    [1.3802, -0.5246, 0.388, 0.816], // cymbalsQuarter
    [-0.0701, -0.2932, -0.5106, -0.0298], // kickBeat
    [-0.2557, 0.2123, 0.5269, 0.4059], // kickHalf
    [0.0166, 0.0672, -0.0323, 0.1888], // snareBeat
    [-0.4253, 0.2181, 0.2731, 0.2807], // snareHalf
    [0.098, 0.0697, -0.1228, 0.1184], // harmonyFour
    [-0.2051, 0.0339, 0.0712, 0.2514], // harmonyEight
  ],
  hiddenBias: [1.1648, 0.8386, -0.9492, 1.2396],
  output: [1.7475, -1.6215, 1.2969, 1.2995],
};

export function levelScore(features: LevelFeatures, model: LevelModel = LEVEL_MODEL): number {
  const x = LEVEL_CUES.map((cue, j) => standardised(features[cue], model.mean[j], model.scale[j]));
  let score = 0;
  x.forEach((value, j) => (score += model.linear[j] * value));
  model.output.forEach((weight, unit) => {
    let sum = model.hiddenBias[unit];
    x.forEach((value, j) => (sum += model.hidden[j][unit] * value));
    score += weight * Math.tanh(sum);
  });
  return score;
}

/** A cue minus its mean, over its scale; 0 (the cue at its mean) for one that could not be measured (NaN). */
export function standardised(value: number, mean: number, scale: number): number {
  return Number.isNaN(value) ? 0 : (value - mean) / scale;
}

/** Floor of each periodicity and of evenness, so that a cue at 0 leaves the others to decide. */
const MIN_CUE = 1e-3;
const WINDOW_BEATS = 16;
/** Reference tempo of the octave features. */
const REFERENCE_BPM = 120;

/** The cues of each candidate tempo. */
export function levelFeatures(onsets: OnsetEnvelope, harmony: HarmonicChange, candidates: number[]): LevelFeatures[] {
  const fps = onsets.framesPerSecond;
  const slowest = Math.min(...candidates);
  const periodicity = (signal: Float32Array, framesPerSecond: number, longestBeats: number, absent = MIN_CUE) => {
    const acf = autocorrelation(pulseSignal(signal, framesPerSecond), Math.ceil((longestBeats * 60 * framesPerSecond) / slowest) + 2);
    // A lag the recording does not reach (a chord change every 8 slow beats in a short clip) is not measured either.
    return (lag: number) =>
      acf[0] > 0 && Math.round(lag) + 1 < acf.length ? Math.log(Math.max(MIN_CUE, peakNear(acf, lag) / (3 * acf[0]))) : Math.log(absent);
  };
  const cymbals = periodicity(onsets.high, fps, 1);
  const kick = periodicity(onsets.low, fps, 1);
  const snare = periodicity(onsets.snare, fps, 1);
  // A recording without held notes (drums alone) says nothing about where its chords change: not measured.
  const changes = periodicity(harmony.change, harmony.framesPerSecond, 8, NaN);
  return candidates.map((bpm) => {
    const period = (60 * fps) / bpm;
    const harmonyBeat = (60 * harmony.framesPerSecond) / bpm;
    const octaves = Math.log2(bpm / REFERENCE_BPM);
    return {
      bpm,
      octaves,
      octavesSquared: octaves * octaves,
      evenness: Math.log(Math.max(MIN_CUE, evenness(onsets.balanced, 2 * period))),
      cymbalsBeat: cymbals(period),
      cymbalsHalf: cymbals(period / 2),
      cymbalsQuarter: cymbals(period / 4),
      kickBeat: kick(period),
      kickHalf: kick(period / 2),
      snareBeat: snare(period),
      snareHalf: snare(period / 2),
      harmonyFour: changes(4 * harmonyBeat),
      harmonyEight: changes(8 * harmonyBeat),
    };
  });
}

/** Log-normal preference for tempi near 120 BPM (σ = 1 octave): the comb's search prior (tempo.ts). */
export function tempoPrior(bpm: number): number {
  const octaves = Math.log2(bpm / REFERENCE_BPM);
  return Math.exp(-0.5 * octaves * octaves);
}

/**
 * The autocorrelation summed over the three frames around `lag` (0 where it is not covered): its peaks are a frame
 * or two wide, so one interpolated value would depend on where the true lag falls between frames.
 */
function peakNear(acf: Float64Array, lag: number): number {
  const centre = Math.round(lag);
  let sum = 0;
  for (let i = centre - 1; i <= centre + 1; i++) if (i >= 0 && i < acf.length) sum += acf[i];
  return sum;
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
      onGrid += strongestNear(strength, start + phase + k * period);
      between += strongestNear(strength, start + phase + (k + 0.5) * period);
    }
    if (onGrid + between > best.onGrid + best.between) best = { onGrid, between };
  }
  return best;
}

function strongestNear(values: Float32Array, position: number): number {
  const centre = Math.round(position);
  let peak = 0;
  for (let i = centre - 1; i <= centre + 1; i++) if (i >= 0 && i < values.length && values[i] > peak) peak = values[i];
  return peak;
}
