import type { DrumId } from './drumKit';

/** The step sequencer's pattern and limits; no audio here. */
export const STEPS = 16;
/** The sequencer's rows: the kit's first four drums. */
export const SEQUENCER_ROWS: DrumId[] = ['kick', 'snare', 'hihat', 'openhat'];
export const BPM_MIN = 60;
export const BPM_MAX = 200;
export const BPM_DEFAULT = 120;

export type Pattern = Record<DrumId, boolean[]>;

/** The starting pattern: kick on the beats, snare on 2 and 4, hi-hat on every step. */
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

