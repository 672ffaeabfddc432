import * as Tone from 'tone';
import type { DrumKit } from './drumKit';
import { hitGate } from './toneContext';
import { BPM_DEFAULT, clampBpm, defaultPattern, SEQUENCER_ROWS, STEPS, type Pattern } from './pattern';

export * from './pattern';

/**
 * The pattern as a looping Tone.Sequence of 16th notes, started at the Transport's 0: each step triggers
 * the drums whose row is on (read at play time, so edits are heard at once; a step handed over late or twice
 * is skipped), then calls `onStep`.
 */
export function patternSequence(kit: DrumKit, pattern: () => Pattern, onStep?: (step: number, time: number) => void): Tone.Sequence<number> {
  const admit = hitGate();
  return new Tone.Sequence<number>(
    (time, step) => {
      const current = pattern();
      if (admit(time)) for (const id of SEQUENCER_ROWS) if (current[id]?.[step]) kit.trigger(id, time);
      onStep?.(step, time);
    },
    Array.from({ length: STEPS }, (_, i) => i),
    '16n',
  ).start(0);
}

/**
 * A 16-step loop of 16th notes on Tone's Transport: every hit is scheduled ahead on the audio clock
 * (Tone's look-ahead), never with a timer per note. The step highlight follows via Tone.Draw, in time
 * with what is heard.
 */
export class StepSequencer {
  private sequence: Tone.Sequence<number> | null = null;
  private tempo = BPM_DEFAULT;
  /** Bumped on every start and stop: a highlight drawn for an earlier run is dropped. */
  private run = 0;
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
    const run = ++this.run;
    this.sequence = patternSequence(
      this.kit,
      () => this.pattern,
      (step, time) => Tone.getDraw().schedule(() => run === this.run && this.onStep(step), time),
    );
    const transport = Tone.getTransport();
    const start = at ?? transport.now();
    transport.bpm.setValueAtTime(this.tempo, start);
    transport.position = 0;
    transport.start(start);
  }

  /** Stops and resets the position: the next start begins at step 1. */
  stop(): void {
    if (!this.sequence) return;
    this.run++;
    Tone.getTransport().stop();
    Tone.getTransport().cancel(0);
    this.sequence.dispose();
    this.sequence = null;
    this.onStep(-1);
  }
}
