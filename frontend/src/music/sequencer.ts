import * as Tone from 'tone';
import type { DrumKit, DrumId } from './drumKit';

export const STEPS = 16;
/** The sequencer's rows: the kit's first four drums. */
export const SEQUENCER_ROWS: DrumId[] = ['kick', 'snare', 'hihat', 'openhat'];
export const BPM_MIN = 60;
export const BPM_MAX = 200;
export const BPM_DEFAULT = 120;

export type Pattern = Record<DrumId, boolean[]>;

/** Seed 001 §2: kick on the beats, snare on 2 and 4, hi-hat on every step. */
export function defaultPattern(): Pattern {
  const row = (on: (step: number) => boolean) => Array.from({ length: STEPS }, (_, step) => on(step));
  return {
    kick: row((s) => s % 4 === 0),
    snare: row((s) => s === 4 || s === 12),
    hihat: row(() => true),
    openhat: row(() => false),
  } as Pattern;
}

export function emptyPattern(): Pattern {
  return Object.fromEntries(SEQUENCER_ROWS.map((id) => [id, Array(STEPS).fill(false)])) as Pattern;
}

export const clampBpm = (bpm: number): number => Math.round(Math.min(BPM_MAX, Math.max(BPM_MIN, bpm)));

/**
 * A 16-step loop of 16th notes on Tone's Transport: every hit is scheduled ahead on the audio clock
 * (Tone's look-ahead), never with a timer per note. The step highlight follows via Tone.Draw, in time
 * with what is heard.
 */
export class StepSequencer {
  private sequence: Tone.Sequence<number> | null = null;
  private tempo = BPM_DEFAULT;
  pattern: Pattern;

  constructor(
    private readonly kit: DrumKit,
    private readonly onStep: (step: number) => void = () => undefined,
    pattern: Pattern = defaultPattern(),
  ) {
    this.pattern = pattern;
  }

  get playing(): boolean {
    return this.sequence !== null;
  }

  get bpm(): number {
    return this.tempo;
  }

  /** Changes the tempo now (while playing too). */
  set bpm(value: number) {
    this.tempo = clampBpm(value);
    Tone.getTransport().bpm.value = this.tempo;
  }

  /** Starts the loop at `at` on the transport's timeline (now by default). */
  start(at?: number): void {
    this.stop();
    const steps = Array.from({ length: STEPS }, (_, i) => i);
    this.sequence = new Tone.Sequence<number>(
      (time, step) => {
        for (const id of SEQUENCER_ROWS) if (this.pattern[id]?.[step]) this.kit.trigger(id, time);
        Tone.getDraw().schedule(() => this.onStep(step), time);
      },
      steps,
      '16n',
    ).start(0);
    const transport = Tone.getTransport();
    const start = at ?? transport.now();
    transport.bpm.setValueAtTime(this.tempo, start);
    transport.position = 0;
    transport.start(start);
  }

  /** Stops and resets the position: the next start begins at step 1. */
  stop(): void {
    if (!this.sequence) return;
    Tone.getTransport().stop();
    Tone.getTransport().cancel(0);
    this.sequence.dispose();
    this.sequence = null;
    this.onStep(-1);
  }
}
