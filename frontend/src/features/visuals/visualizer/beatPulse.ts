import type { BeatReading } from './beatDetector';

/** The flash of a beat fades with this time constant. */
const PULSE_DECAY_MS = 120;

/** Where the beats (and the tempo shown) come from. */
export type BeatSource = 'grid' | 'live' | 'fallback';

export interface PulseState {
  beat: boolean;
  pulse: number;
  bpm: number;
  source: BeatSource;
  /** A live-detected beat that goes out on the playback event stream (never while a clocked source plays). */
  emitLiveBeat: boolean;
}

/**
 * Chooses the beats that drive the pulses: while a clocked source plays (stem playback on the project's
 * analysed grid, the sequencer or a demo song) its own beat events do, and the live detector only listens;
 * otherwise the live detector's onsets do, and those are the beats to announce — so a beat is never sent twice.
 */
export class BeatPulse {
  private pulse = 0;
  private lastTimeMs: number | null = null;
  private clockedBeatPending = false;
  private clockedBpm: number | null = null;

  /** A beat event of a clocked source (its tempo is the one shown while it plays). */
  clocked(bpm: number): void {
    this.clockedBeatPending = true;
    this.clockedBpm = bpm;
  }

  /** One frame: the detector's reading and whether a clocked source plays now. */
  frame(reading: BeatReading, clockedPlaying: boolean, timeMs: number): PulseState {
    const elapsed = this.lastTimeMs === null ? 0 : Math.max(0, timeMs - this.lastTimeMs);
    this.lastTimeMs = timeMs;
    this.pulse *= Math.exp(-elapsed / PULSE_DECAY_MS);
    let state: PulseState;
    if (clockedPlaying) {
      const beat = this.clockedBeatPending;
      state = { beat, pulse: 0, bpm: this.clockedBpm ?? reading.bpm, source: 'grid', emitLiveBeat: false };
    } else {
      this.clockedBpm = null;
      state = { beat: reading.beat, pulse: 0, bpm: reading.bpm, source: reading.measured ? 'live' : 'fallback', emitLiveBeat: reading.beat };
    }
    // A clocked beat that arrives while nothing clocked plays any more (its last one) is dropped.
    this.clockedBeatPending = false;
    if (state.beat) this.pulse = 1;
    state.pulse = this.pulse < 0.01 ? 0 : this.pulse;
    return state;
  }
}
