/**
 * Beats and tempo from the live signal: the master analyser's byte frequency data, one frame per draw.
 *
 * An onset is the low band (up to LOW_BAND_HZ: kick drum and bass) reaching BEAT_THRESHOLD (150 of 255) while it
 * rises clearly above its recent average, at most one per MIN_ONSET_GAP_MS. The tempo is searched in
 * 40–200 BPM over the inter-onset intervals of the last seconds: every pair of onsets votes for the
 * periods it fits (one, two, three or four periods apart), the best period is then refined by a least-squares
 * fit of the onsets on its grid. Until enough onsets agree the tempo reads FALLBACK_BPM (120). Plain
 * TypeScript: no audio or DOM here, so it is unit-tested with synthetic analyser frames.
 */
export const BEAT_THRESHOLD = 150;
export const MIN_BPM = 40;
export const MAX_BPM = 200;
export const FALLBACK_BPM = 120;
export const LOW_BAND_HZ = 150;

/** The low band must stand this much (0–255) above its average of the last AVERAGE_MS to count as an onset. */
const ONSET_RISE = 12;
const AVERAGE_MS = 500;
/** Faster than any tempo in range (200 BPM is 300 ms), slower than a kick's own ringing. */
const MIN_ONSET_GAP_MS = 240;
/** Onsets older than this no longer count for the tempo (it follows a change of song within seconds). */
const TEMPO_WINDOW_MS = 8000;
/** Fewer onsets than this in the window: the tempo is not known yet. */
const MIN_ONSETS = 5;
/** Pairs of onsets further apart than this do not vote (else a period and its double would tie). */
const PAIR_SPAN_MS = 3000;
/** A pair of onsets fits a period when it lies within this fraction of it from a whole number of periods. */
const FIT_TOLERANCE = 0.06;
/** No onset for this long: the music stopped; the tempo starts over. */
const SILENCE_RESET_MS = 4000;

export interface BeatReading {
  /** An onset in this frame. */
  beat: boolean;
  /** The low band's level, 0–255. */
  level: number;
  /** The detected tempo, or FALLBACK_BPM until it is known. */
  bpm: number;
  /** Whether bpm was measured (false: the fallback). */
  measured: boolean;
}

export class BeatDetector {
  private readonly onsets: number[] = [];
  private average = 0;
  private started = false;
  private lastTime: number | null = null;
  private armed = true;
  private currentBpm = FALLBACK_BPM;
  private bpmMeasured = false;

  /** `binHz`: the width of one frequency bin (sampleRate / fftSize). */
  constructor(private readonly binHz: number) {}

  get bpm(): number {
    return this.currentBpm;
  }

  get measured(): boolean {
    return this.bpmMeasured;
  }

  /** One analyser frame (getByteFrequencyData) taken at `timeMs`. */
  push(frequencies: Uint8Array, timeMs: number): BeatReading {
    const level = lowBandLevel(frequencies, this.binHz);
    const elapsed = this.lastTime === null ? 0 : Math.max(0, timeMs - this.lastTime);
    this.lastTime = timeMs;
    const last = this.onsets.at(-1);
    if (last !== undefined && timeMs - last > SILENCE_RESET_MS) this.reset();

    const rise = level - this.average;
    let beat = false;
    if (this.armed && level >= BEAT_THRESHOLD && rise >= ONSET_RISE && (last === undefined || timeMs - last >= MIN_ONSET_GAP_MS)) {
      beat = true;
      this.armed = false;
      this.onsets.push(timeMs);
      while (this.onsets.length > 0 && timeMs - this.onsets[0]! > TEMPO_WINDOW_MS) this.onsets.shift();
      this.estimateTempo();
    } else if (!this.armed && (level < BEAT_THRESHOLD || rise < ONSET_RISE / 2)) {
      // Re-armed once the hit has decayed: a long kick tail is one onset, not several.
      this.armed = true;
    }
    // An exponential average over about AVERAGE_MS, whatever the frame rate (the first frame starts it).
    this.average = this.started ? this.average + (level - this.average) * Math.min(1, elapsed / AVERAGE_MS) : level;
    this.started = true;
    return { beat, level, bpm: this.currentBpm, measured: this.bpmMeasured };
  }

  reset(): void {
    this.onsets.length = 0;
    this.currentBpm = FALLBACK_BPM;
    this.bpmMeasured = false;
    this.armed = true;
  }

  private estimateTempo(): void {
    if (this.onsets.length < MIN_ONSETS) return;
    const period = bestPeriod(this.onsets);
    if (period === null) return;
    this.currentBpm = Math.round((60_000 / period) * 10) / 10;
    this.bpmMeasured = true;
  }
}

/** Mean of the bins from the first above DC up to LOW_BAND_HZ. */
export function lowBandLevel(frequencies: Uint8Array, binHz: number): number {
  const last = Math.max(1, Math.min(frequencies.length - 1, Math.floor(LOW_BAND_HZ / binHz)));
  let sum = 0;
  for (let bin = 1; bin <= last; bin++) sum += frequencies[bin]!;
  return sum / last;
}

/**
 * The beat period (ms) that the onsets fit best, in the 40–200 BPM range, or null when none fits enough of
 * them. Candidates are scored by the pairs of onsets (at most PAIR_SPAN_MS apart) that lie a whole number of
 * periods apart, a pair n periods apart weighing 1/n, so the beat period outscores its double and its half
 * (which fit the same pairs at larger n, or fewer of them); the winner is refined by least squares.
 */
export function bestPeriod(onsets: readonly number[]): number | null {
  const minPeriod = 60_000 / MAX_BPM;
  const maxPeriod = 60_000 / MIN_BPM;
  let best: { period: number; score: number } | null = null;
  // 2 ms steps over 300–1500 ms (600 candidates × a few hundred pairs, once per onset); least squares refines.
  for (let period = minPeriod; period <= maxPeriod; period += 2) {
    let score = 0;
    for (let i = 0; i < onsets.length; i++) {
      for (let j = i + 1; j < onsets.length; j++) {
        const span = onsets[j]! - onsets[i]!;
        if (span > PAIR_SPAN_MS) break;
        const periods = span / period;
        const whole = Math.round(periods);
        if (whole < 1) continue;
        const off = Math.abs(periods - whole) / whole;
        if (off <= FIT_TOLERANCE) score += (1 - off / FIT_TOLERANCE) / whole;
      }
    }
    if (!best || score > best.score) best = { period, score };
  }
  if (!best || best.score < MIN_ONSETS - 2) return null;
  return refinePeriod(onsets, best.period);
}

/** Least-squares slope of the onsets against their beat numbers on a grid of `period` from the first onset. */
function refinePeriod(onsets: readonly number[], period: number): number {
  const first = onsets[0]!;
  const points: Array<[number, number]> = [];
  for (const onset of onsets) {
    const beats = (onset - first) / period;
    const whole = Math.round(beats);
    if (Math.abs(beats - whole) <= 0.25) points.push([whole, onset]);
  }
  if (points.length < 3) return period;
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  }
  return sxx > 0 ? sxy / sxx : period;
}
