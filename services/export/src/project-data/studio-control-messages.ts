import { STEM_TYPES } from '@stemdeck/proto';

/**
 * Every OSC address and MIDI message the studio sends while it plays, as the browser's code sends them
 * (frontend/src/audio/playbackEvents.ts, frontend/src/instruments/controlOutputs.ts, the performance pads,
 * the OSC bridge in tools/osc-bridge). The browser's files are not importable here, so this is a copy:
 * studio-control-messages.spec.ts reads those sources and fails when the two drift apart.
 */
export const STUDIO_OSC_PREFIX = '/stemdeck';

/** The performance pads in the order they are laid out (their index picks their MIDI note). */
export const PAD_NAMES = ['vocals', 'drums', 'bass', 'other', 'filter', 'reverb', 'delay', 'distort'] as const;
/** Every pad hit and beat goes out at this velocity. */
export const STUDIO_VELOCITY = 127;
export const BEAT_NOTE = 36;
/** Pad n (from 0) plays note 48 + n (C3 upwards, middle C = C4 = 60). */
export const PAD_NOTE_BASE = 48;
/** A note-on's note-off follows this much later. */
export const NOTE_LENGTH_MS = 100;
export const MIDI_NOTE_ON = 0x90;
export const MIDI_NOTE_OFF = 0x80;
export const MIDI_START = 250;
export const MIDI_CONTINUE = 251;
export const MIDI_STOP = 252;
export const MIDI_CLOCK = 0xf8;
export const CLOCK_PULSES_PER_QUARTER = 24;
/** A stem's level goes out every 100 ms while its RMS is above 0.1. */
export const LEVEL_THRESHOLD = 0.1;
export const LEVEL_INTERVAL_MS = 100;
/** The Stemdeck OSC bridge: the browser reaches it over a local WebSocket; it sends UDP to the target. */
export const OSC_BRIDGE_WEBSOCKET = 'ws://127.0.0.1:7400';
export const OSC_DEFAULT_TARGET = { host: '127.0.0.1', port: 7000 } as const;
/** Tempo range a project can hold (media's bounds on bpm). */
export const BPM_RANGE = { min: 20, max: 400 } as const;

export type OscArgType = 's' | 'i' | 'f' | 'i|f';

export interface OscArgument {
  name: string;
  /** OSC type tag; 'i|f' where a whole number goes out as int32 and anything else as float32 (osc-js encodes JavaScript numbers so). */
  type: OscArgType;
  unit?: string;
  min?: number;
  max?: number;
  values?: readonly string[];
}

export interface OscMessageSpec {
  address: string;
  when: string;
  args: OscArgument[];
}

export interface MidiMessageSpec {
  name: string;
  /** The status byte (channel 1 for channel messages). */
  status: number;
  /** The bytes as sent, e.g. [144, 36, 127]. */
  bytes: number[];
  when: string;
  /** For notes: the note-off [128, note, 0] that follows. */
  noteOffAfterMs?: number;
}

export const levelAddress = (stem: string): string => `${STUDIO_OSC_PREFIX}/stem/${stem}_rms`;
export const padAddress = (pad: string): string => `${STUDIO_OSC_PREFIX}/pad/${pad}`;

/** The OSC messages, with their arguments' types and ranges; `durationSeconds` bounds the position. */
export function studioOscMessages(durationSeconds: number | null): OscMessageSpec[] {
  return [
    {
      address: `${STUDIO_OSC_PREFIX}/transport`,
      when: 'the stem player or an instrument plays, pauses or stops (a play after a pause continues)',
      args: [
        { name: 'action', type: 's', values: ['play', 'pause', 'stop'] },
        { name: 'position', type: 'i|f', unit: 's', min: 0, ...(durationSeconds !== null ? { max: durationSeconds } : {}) },
      ],
    },
    {
      address: `${STUDIO_OSC_PREFIX}/beat`,
      when: 'each beat while something plays, within the first 10 % of the beat (beat n at n × 60 / bpm s)',
      args: [
        { name: 'beat', type: 'i', min: 0 },
        { name: 'bpm', type: 'i|f', min: BPM_RANGE.min, max: BPM_RANGE.max },
      ],
    },
    ...STEM_TYPES.map((stem) => ({
      address: levelAddress(stem),
      when: `every ${LEVEL_INTERVAL_MS} ms while the ${stem} stem plays above ${LEVEL_THRESHOLD} RMS (after its mixer volume; a boosted stem can read above 1)`,
      args: [{ name: 'rms', type: 'f' as const, min: LEVEL_THRESHOLD, max: 1 }],
    })),
    ...PAD_NAMES.map((pad) => ({
      address: padAddress(pad),
      when: `the ${pad} pad is hit`,
      args: [{ name: 'velocity', type: 'i' as const, min: STUDIO_VELOCITY, max: STUDIO_VELOCITY }],
    })),
  ];
}

const noteName = (note: number): string => `${['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'][note % 12]}${Math.floor(note / 12) - 1}`;

/** The MIDI messages, sent to the output chosen under "MIDI out". */
export function studioMidiMessages(): MidiMessageSpec[] {
  return [
    { name: 'start', status: MIDI_START, bytes: [MIDI_START], when: 'play from the start' },
    { name: 'continue', status: MIDI_CONTINUE, bytes: [MIDI_CONTINUE], when: 'play after a pause' },
    { name: 'stop', status: MIDI_STOP, bytes: [MIDI_STOP], when: 'pause or stop (MIDI has no pause: Continue resumes)' },
    { name: 'clock', status: MIDI_CLOCK, bytes: [MIDI_CLOCK], when: `${CLOCK_PULSES_PER_QUARTER} pulses per beat while something plays, at its tempo` },
    {
      name: `beat (note ${BEAT_NOTE}, ${noteName(BEAT_NOTE)})`,
      status: MIDI_NOTE_ON,
      bytes: [MIDI_NOTE_ON, BEAT_NOTE, STUDIO_VELOCITY],
      when: 'each beat while something plays',
      noteOffAfterMs: NOTE_LENGTH_MS,
    },
    ...PAD_NAMES.map((pad, index) => ({
      name: `pad ${pad} (note ${PAD_NOTE_BASE + index}, ${noteName(PAD_NOTE_BASE + index)})`,
      status: MIDI_NOTE_ON,
      bytes: [MIDI_NOTE_ON, PAD_NOTE_BASE + index, STUDIO_VELOCITY],
      when: `the ${pad} pad is hit`,
      noteOffAfterMs: NOTE_LENGTH_MS,
    })),
  ];
}

export interface ProjectSummary {
  id: string;
  name: string;
  durationSeconds: number;
  bpm: number | null;
  beatsPerBar: number | null;
}

/** osc-midi-config.json. */
export function oscMidiConfig(project: ProjectSummary) {
  return {
    format: 'stemdeck-osc-midi-config',
    version: 1,
    project,
    osc: {
      transport: 'OSC 1.0 over UDP, one message per packet, sent by the Stemdeck OSC bridge running on the studio computer',
      bridge: { websocket: OSC_BRIDGE_WEBSOCKET, defaultTarget: OSC_DEFAULT_TARGET },
      prefix: STUDIO_OSC_PREFIX,
      messages: studioOscMessages(project.durationSeconds),
    },
    midi: {
      output: 'the Web MIDI output chosen under "MIDI out" in the studio; channel messages on channel 1',
      velocity: STUDIO_VELOCITY,
      messages: studioMidiMessages(),
    },
  };
}
export type OscMidiConfig = ReturnType<typeof oscMidiConfig>;
