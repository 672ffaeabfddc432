import { BEAT_NOTE, BEAT_VELOCITY, MIDI_NOTE_ON, OSC_PREFIX, type PlaybackEvent } from '../audio/playbackEvents';
import { midiAccess } from './midiInput';
import { OscBridgeClient } from './oscBridgeClient';

export const MIDI_CLOCK = 0xf8;
/** MIDI clock: 24 pulses per quarter note. */
export const CLOCK_PPQ = 24;
const CLOCK_LOOKAHEAD_MS = 100;
const CLOCK_TICK_MS = 25;
const PAD_NOTE_BASE = 48;
const NOTE_MS = 100;
const MIDI_NOTE_OFF = 0x80;

export interface MidiOutputDevice {
  id: string;
  name: string;
}

/** Clock pulse times (performance.now ms) in [from, to) for a clock that started at `start` at `bpm`. */
export function clockPulses(start: number, bpm: number, from: number, to: number): number[] {
  const interval = 60_000 / bpm / CLOCK_PPQ;
  const first = Math.max(0, Math.ceil((from - start) / interval));
  const pulses: number[] = [];
  for (let n = first; start + n * interval < to; n++) pulses.push(start + n * interval);
  return pulses;
}

/**
 * Everything the studio tells the outside world: playback and pad events
 * as OSC (through the local bridge) and MIDI (to the chosen Web MIDI output), plus MIDI clock at 24 per
 * quarter note while something plays. Counts what it actually sent.
 */
export class ControlOutputs {
  readonly osc = new OscBridgeClient();
  private output: MIDIOutput | null = null;
  private clock: { timer: ReturnType<typeof setInterval>; start: number; bpm: number; scheduledUntil: number } | null = null;
  private sentCount = 0;
  private readonly countListeners = new Set<(count: number) => void>();

  get sent(): number {
    return this.sentCount;
  }

  onSent(listener: (count: number) => void): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  /** Real Web MIDI outputs, or why there are none. */
  async midiOutputs(): Promise<{ ok: true; devices: MidiOutputDevice[] } | { ok: false; message: string }> {
    const result = await midiAccess();
    if (!result.ok) return result;
    const devices: MidiOutputDevice[] = [];
    result.access.outputs.forEach((output) => devices.push({ id: output.id, name: output.name ?? output.id }));
    return { ok: true, devices };
  }

  async selectMidiOutput(id: string | null): Promise<void> {
    const result = await midiAccess();
    this.setMidiOutput(id && result.ok ? (result.access.outputs.get(id) ?? null) : null);
  }

  setMidiOutput(output: Pick<MIDIOutput, 'send'> | null): void {
    this.output = output as MIDIOutput | null;
  }

  /** A message that went out on the live connection (pad_trigger) counts as an event sent too. */
  notePadMessage(): void {
    this.count();
  }

  /** A playback event (transport, beat, stem level) out as OSC and, for transport and beats, MIDI. */
  playback(event: PlaybackEvent): void {
    this.sendOsc(event.osc.address, event.osc.args);
    // Transport is a one-byte real-time message; a beat is note-on 36, velocity 127.
    if (event.type === 'transport') this.sendMidi([event.midi.status]);
    if (event.type === 'beat') this.sendNote(BEAT_NOTE, BEAT_VELOCITY);
  }

  /** A pad hit: OSC /stemdeck/pad/{name} [velocity] and a MIDI note (C3 upwards, by pad index). */
  pad(name: string, index: number, velocity: number): void {
    this.sendOsc(`${OSC_PREFIX}/pad/${name.toLowerCase()}`, [velocity]);
    this.sendNote(PAD_NOTE_BASE + index, velocity);
  }

  /** MIDI clock while playing: pulses scheduled ahead with timestamps, so they do not jitter with the page. */
  startClock(bpm: number): void {
    this.stopClock();
    const start = performance.now();
    const clock = { start, bpm, scheduledUntil: start, timer: setInterval(() => this.pumpClock(), CLOCK_TICK_MS) };
    this.clock = clock;
    this.pumpClock();
  }

  stopClock(): void {
    if (this.clock) clearInterval(this.clock.timer);
    this.clock = null;
  }

  private pumpClock(): void {
    const clock = this.clock;
    if (!clock) return;
    // The window moves on with or without an output, so choosing one mid-song sends no backlog of pulses.
    const until = performance.now() + CLOCK_LOOKAHEAD_MS;
    const from = Math.max(clock.scheduledUntil, performance.now());
    if (this.output) for (const at of clockPulses(clock.start, clock.bpm, from, until)) this.output.send([MIDI_CLOCK], at);
    clock.scheduledUntil = until;
  }

  private sendOsc(address: string, args: Array<number | string>): void {
    if (this.osc.send(address, args)) this.count();
  }

  /** Note-on now, its note-off 100 ms later (timestamped, so no timer). */
  private sendNote(note: number, velocity: number): void {
    if (this.sendMidi([MIDI_NOTE_ON, note, velocity])) this.output?.send([MIDI_NOTE_OFF, note, 0], performance.now() + NOTE_MS);
  }

  private sendMidi(bytes: number[]): boolean {
    if (!this.output) return false;
    this.output.send(bytes);
    this.count();
    return true;
  }

  private count(): void {
    this.sentCount++;
    for (const listener of this.countListeners) listener(this.sentCount);
  }
}

export const controlOutputs = new ControlOutputs();
