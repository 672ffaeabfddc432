import { autocorrelation } from './autocorrelation';
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
 * and 160 songs of the wide training family (`generate.js --set wide --seed 1`: the same grooves and styles played
 * by other soundfonts and FM banks, so that the cues are weighed across more than one family of kits).
 */
export function chooseMetricalLevel(onsets: OnsetEnvelope, bpm: number, minBpm: number, maxBpm: number): number {
  const candidates = [bpm / 2, bpm, bpm * 2].filter((candidate) => candidate >= minBpm && candidate <= maxBpm);
  if (candidates.length < 2) return bpm;
  return candidates[bestLevel(levelFeatures(onsets, candidates))];
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
  mean: [-0.1542, 0.2992, -0.3401, -1.0101, -1.4853, -2.7744, -1.4224, -1.8419, -1.0699, -1.5216],
  scale: [0.5248, 0.276, 0.5259, 0.4569, 1.027, 1.6105, 0.6715, 0.9882, 0.5466, 1.1402],
  linear: [0.6827, -0.3275, 0.4108, 0.0656, 0.5076, 0.2654, -0.2254, -0.083, 0.2499, -0.1823],
  hidden: [
    [-0.1217, 0.7773, 0.1917, -0.9853], // octaves
    [-0.1115, -0.3544, 0.2043, 0.3445], // octavesSquared
    [0.5785, 0.1882, 0.189, -0.0592], // evenness
    [0.1486, 0.3801, 0.0208, -0.0989], // cymbalsBeat
    [0.0944, 0.1665, 0.553, -0.6919], // cymbalsHalf
    [1.3364, 0.4048, 1.1383, -0.4599], // cymbalsQuarter
    [-0.0411, 0.1151, -0.0378, -0.1953], // kickBeat
    [-0.0847, -0.1117, 0.1052, 0.2399], // kickHalf
    [0.1393, 0.1081, -0.0907, 0.1064], // snareBeat
    [-0.545, -0.1489, 0.1868, 0.2126], // snareHalf
  ],
  hiddenBias: [1.1141, -0.7505, 0.696, 0.8261],
  output: [1.6779, 1.0891, 1.2967, -1.478],
};

export function levelScore(features: LevelFeatures, model: LevelModel = LEVEL_MODEL): number {
  const x = LEVEL_CUES.map((cue, j) => (features[cue] - model.mean[j]) / model.scale[j]);
  let score = 0;
  x.forEach((value, j) => (score += model.linear[j] * value));
  model.output.forEach((weight, unit) => {
    let sum = model.hiddenBias[unit];
    x.forEach((value, j) => (sum += model.hidden[j][unit] * value));
    score += weight * Math.tanh(sum);
  });
  return score;
}

/** Floor of each periodicity and of evenness, so that a cue at 0 leaves the others to decide. */
const MIN_CUE = 1e-3;
const WINDOW_BEATS = 16;
/** Reference tempo of the octave features. */
const REFERENCE_BPM = 120;

/** The cues of each candidate tempo. */
export function levelFeatures(onsets: OnsetEnvelope, candidates: number[]): LevelFeatures[] {
  const fps = onsets.framesPerSecond;
  const longest = Math.ceil(Math.max(...candidates.map((bpm) => (60 * fps) / bpm))) + 2;
  const periodicity = (band: Float32Array) => {
    const acf = autocorrelation(pulseSignal(band, fps), longest);
    return (lag: number) => Math.log(Math.max(MIN_CUE, acf[0] > 0 ? peakNear(acf, lag) / (3 * acf[0]) : 0));
  };
  const cymbals = periodicity(onsets.high);
  const kick = periodicity(onsets.low);
  const snare = periodicity(onsets.snare);
  return candidates.map((bpm) => {
    const period = (60 * fps) / bpm;
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
