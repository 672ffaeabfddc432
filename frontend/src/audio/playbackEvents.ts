import type { StemType } from '../api/mediaTypes';

/**
 * The typed playback event stream that pads, OSC/MIDI bridges and visuals consume:
 * every event carries its MIDI-style and/or OSC-style record, ready to forward.
 */
export const OSC_PREFIX = '/stemdeck';

export interface OscRecord {
  address: string;
  args: Array<number | string>;
  timestamp: number;
}

export interface MidiRecord {
  status: number;
  data1: number;
  data2: number;
  timestamp: number;
}

export const MIDI_NOTE_ON = 0x90;
export const BEAT_NOTE = 36;
export const BEAT_VELOCITY = 127;
/** MIDI real-time transport bytes: Start, Continue, Stop. */
export const MIDI_START = 250;
export const MIDI_CONTINUE = 251;
export const MIDI_STOP = 252;
/** A stem level event is sent while the stem's RMS is above 0.1. */
export const LEVEL_EVENT_THRESHOLD = 0.1;
/** Beat events fire within the first 10 % of a beat. */
export const BEAT_WINDOW = 0.1;

export type TransportAction = 'play' | 'pause' | 'stop';

export type PlaybackEvent =
  | { type: 'transport'; action: TransportAction; position: number; midi: MidiRecord; osc: OscRecord }
  | { type: 'beat'; beat: number; bpm: number; position: number; midi: MidiRecord; osc: OscRecord }
  | { type: 'level'; stem: StemType; rms: number; osc: OscRecord };

/**
 * Transport: play from the start is MIDI Start (250), play after a pause is Continue (251), pause and
 * stop are Stop (252) — MIDI has no pause; a pause is a stop that Continue resumes.
 */
export function transportEvent(action: TransportAction, position: number, resumed: boolean, timestamp: number): PlaybackEvent {
  const status = action === 'play' ? (resumed ? MIDI_CONTINUE : MIDI_START) : MIDI_STOP;
  return {
    type: 'transport',
    action,
    position,
    midi: { status, data1: 0, data2: 0, timestamp },
    osc: { address: `${OSC_PREFIX}/transport`, args: [action, position], timestamp },
  };
}

export function beatEvent(beat: number, bpm: number, position: number, timestamp: number): PlaybackEvent {
  return {
    type: 'beat',
    beat,
    bpm,
    position,
    midi: { status: MIDI_NOTE_ON, data1: BEAT_NOTE, data2: BEAT_VELOCITY, timestamp },
    osc: { address: `${OSC_PREFIX}/beat`, args: [beat, bpm], timestamp },
  };
}

export function levelEvent(stem: StemType, rms: number, timestamp: number): PlaybackEvent {
  return { type: 'level', stem, rms, osc: { address: `${OSC_PREFIX}/stem/${stem}_rms`, args: [rms], timestamp } };
}

/**
 * Emits each beat once, when the playhead is in the first 10 % of it. Seeks reset it, so jumping into
 * the window of a later beat fires that beat.
 */
export class BeatTracker {
  private lastBeat = -1;

  /** The beat index to announce at this position, or null. */
  check(position: number, bpm: number): number | null {
    if (!(bpm > 0) || position < 0) return null;
    const beats = (position * bpm) / 60;
    const beat = Math.floor(beats);
    if (beats - beat >= BEAT_WINDOW || beat === this.lastBeat) return null;
    this.lastBeat = beat;
    return beat;
  }

  reset(): void {
    this.lastBeat = -1;
  }
}

type Listener = (event: PlaybackEvent) => void;

export class PlaybackEventStream {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: PlaybackEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
