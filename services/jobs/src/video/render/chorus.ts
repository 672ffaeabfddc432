import { CHORUS_SECONDS } from '../video-renderer.port';

/** The mix read coarsely: per analysis frame (frame k covers [k, k + 1) / frameRate seconds). */
export interface SongFeatures {
  frameRate: number;
  /** Mean square of the mono mix in each frame. */
  energy: Float64Array;
  /** Pitch-class power per frame, 12 per frame (frame k's at [12k, 12k + 12)); absent when not measured. */
  chroma?: Float64Array;
}

export interface SongGrid {
  songSeconds: number;
  bpm: number;
  beatsPerBar: number;
}

export interface ChorusChoice {
  startSeconds: number;
  endSeconds: number;
}

/** How much a window's repetition counts against its loudness (both 0..1). */
export const REPETITION_WEIGHT = 0.5;
/** Bars whose levels differ by this much (dB, beat by beat) count as not alike at all. */
const LEVEL_SPAN_DB = 12;
const FLOOR_DB = -80;

const toDb = (power: number): number => Math.max(FLOOR_DB, 10 * Math.log10(Math.max(power, 1e-12)));

interface Bar {
  /** The bar's level in dB (mean square over its frames). */
  db: number;
  /** Each beat's level in dB: the bar's energy envelope. */
  beatDb: number[];
  /** Unit-length pitch-class profile, or undefined when unmeasured or silent. */
  chroma?: Float64Array;
}

/**
 * The chorus loop: the CHORUS_SECONDS window of the song that is loudest and most repeated, starting on a bar line.
 *
 * 1. The song is cut into bars on the studio's grid (bar b starts at b × beatsPerBar × 60 / bpm s). Each bar gets
 *    its level (dB of its mean square), its beat-by-beat levels (its energy envelope) and its pitch-class profile.
 * 2. Candidates start on each bar line from which a whole window fits in the song.
 * 3. loudness(window) = mean bar level over the window's bars, scaled to 0..1 between the quietest and loudest
 *    candidate windows (so the rule does not depend on how loud the song was mastered).
 * 4. repetition(window) = how well its bar sequence recurs elsewhere: the best, over every other candidate at least
 *    half a window away, of the mean bar-by-bar similarity of the two sequences. Two bars are alike when their
 *    pitch-class profiles match (cosine) and their energy envelopes match (1 − mean |dB difference| / 12 dB, at
 *    least 0); without pitch classes the envelope alone counts. A chorus is the part a song comes back to, with the
 *    same chords and the same drive; a loud bridge or a single climax is not.
 * 5. score = loudness + REPETITION_WEIGHT × repetition; the highest wins, the earliest on a tie.
 * A song shorter than the window is used whole.
 */
export function chooseChorus(features: SongFeatures, grid: SongGrid, chorusSeconds: number = CHORUS_SECONDS): ChorusChoice {
  const { songSeconds } = grid;
  if (!(songSeconds > chorusSeconds)) return { startSeconds: 0, endSeconds: Math.max(0, songSeconds) };
  const bpm = grid.bpm > 0 && Number.isFinite(grid.bpm) ? grid.bpm : 120;
  const beatsPerBar = Math.max(1, Math.round(grid.beatsPerBar) || 4);
  const beatSeconds = 60 / bpm;
  const barSeconds = beatSeconds * beatsPerBar;
  const bars = measureBars(features, songSeconds, beatSeconds, beatsPerBar);

  // Bar lines from which the window fits (a microsecond of slack for rounding); bar 0 always does.
  const starts: number[] = [];
  for (let bar = 0; bar * barSeconds + chorusSeconds <= songSeconds + 1e-6; bar++) starts.push(bar);
  const windowBars = Math.max(1, Math.ceil(chorusSeconds / barSeconds - 1e-9));
  const barsOf = (start: number) => bars.slice(start, Math.min(bars.length, start + windowBars));

  const levels = starts.map((start) => mean(barsOf(start).map((bar) => bar.db)));
  const quietest = Math.min(...levels);
  const loudest = Math.max(...levels);
  const loudness = levels.map((level) => (loudest > quietest ? (level - quietest) / (loudest - quietest) : 1));

  const minApart = Math.max(1, Math.ceil(windowBars / 2));
  const repetition = starts.map((start) => {
    let best = 0;
    for (const other of starts) {
      if (Math.abs(other - start) < minApart) continue;
      const these = barsOf(start);
      const those = barsOf(other);
      const length = Math.min(these.length, those.length);
      let sum = 0;
      for (let i = 0; i < length; i++) sum += barSimilarity(these[i]!, those[i]!);
      if (length > 0) best = Math.max(best, sum / length);
    }
    return best;
  });

  let chosen = 0;
  let bestScore = -Infinity;
  starts.forEach((_, index) => {
    const score = loudness[index]! + REPETITION_WEIGHT * repetition[index]!;
    if (score > bestScore + 1e-12) {
      bestScore = score;
      chosen = index;
    }
  });
  const startSeconds = starts[chosen]! * barSeconds;
  return { startSeconds, endSeconds: startSeconds + chorusSeconds };
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : FLOOR_DB;
}

function measureBars(features: SongFeatures, songSeconds: number, beatSeconds: number, beatsPerBar: number): Bar[] {
  const { frameRate, energy, chroma } = features;
  const beatCount = Math.ceil(songSeconds / beatSeconds - 1e-9);
  const beatPower = new Float64Array(beatCount);
  const beatFrames = new Float64Array(beatCount);
  const beatChroma = chroma ? new Float64Array(beatCount * 12) : undefined;
  for (let frame = 0; frame < energy.length; frame++) {
    const beat = Math.floor((frame + 0.5) / frameRate / beatSeconds);
    if (beat >= beatCount) break;
    beatPower[beat] += energy[frame]!;
    beatFrames[beat]! += 1;
    if (beatChroma && chroma) for (let pc = 0; pc < 12; pc++) beatChroma[beat * 12 + pc] += chroma[frame * 12 + pc] ?? 0;
  }
  const bars: Bar[] = [];
  for (let first = 0; first < beatCount; first += beatsPerBar) {
    const beats = Array.from({ length: Math.min(beatsPerBar, beatCount - first) }, (_, i) => first + i);
    const beatDb = beats.map((beat) => toDb(beatFrames[beat]! > 0 ? beatPower[beat]! / beatFrames[beat]! : 0));
    const frames = beats.reduce((sum, beat) => sum + beatFrames[beat]!, 0);
    const power = beats.reduce((sum, beat) => sum + beatPower[beat]!, 0);
    let profile: Float64Array | undefined;
    if (beatChroma) {
      profile = new Float64Array(12);
      for (const beat of beats) for (let pc = 0; pc < 12; pc++) profile[pc] += beatChroma[beat * 12 + pc]!;
      const norm = Math.hypot(...profile);
      profile = norm > 1e-12 ? profile.map((value) => value / norm) : undefined;
    }
    bars.push({ db: toDb(frames > 0 ? power / frames : 0), beatDb, chroma: profile });
  }
  return bars;
}

/** 0..1: how alike two bars are (see chooseChorus, step 4). */
function barSimilarity(a: Bar, b: Bar): number {
  const length = Math.min(a.beatDb.length, b.beatDb.length);
  let difference = 0;
  for (let i = 0; i < length; i++) difference += Math.abs(a.beatDb[i]! - b.beatDb[i]!);
  const envelope = length > 0 ? Math.max(0, 1 - difference / length / LEVEL_SPAN_DB) : 0;
  if (!a.chroma || !b.chroma) return envelope;
  let cosine = 0;
  for (let pc = 0; pc < 12; pc++) cosine += a.chroma[pc]! * b.chroma[pc]!;
  return envelope * Math.max(0, cosine);
}
