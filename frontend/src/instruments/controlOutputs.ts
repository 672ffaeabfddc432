import { BEAT_NOTE, BEAT_VELOCITY, MIDI_NOTE_ON, OSC_PREFIX, type PlaybackEvent } from '../audio/playbackEvents';
import { midiAccess } from './midiInput';
import { OscBridgeClient, RESOLUME_BRIDGE_URL, resolumePreference, type BridgeRoute, type OscArgument } from './oscBridgeClient';

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
 * Resolume's tempo controller over OSC: its fader takes 0..1 across 20..500 BPM (the export's Resolume kit
 * writes the same value into resolume.json), and a resync restarts its bar on the studio's downbeat.
 */
export const RESOLUME_TEMPO_RANGE = { min: 20, max: 500 } as const;
export const resolumeTempoValue = (bpm: number): number =>
  Math.min(1, Math.max(0, (bpm - RESOLUME_TEMPO_RANGE.min) / (RESOLUME_TEMPO_RANGE.max - RESOLUME_TEMPO_RANGE.min)));
export const RESOLUME_TEMPO_ADDRESS = '/composition/tempocontroller/tempo';
export const RESOLUME_RESYNC_ADDRESS = '/composition/tempocontroller/resync';
/** Resolume's bars are four beats: beats 0, 4, 8, … are downbeats. */
const BEATS_PER_BAR = 4;

/** An OSC message as it went out through the bridge: its route, address, arguments and when (Date.now ms). */
export interface SentOscMessage {
  /** Counts up from 1 for every message sent, so a list can key on it. */
  seq: number;
  route: BridgeRoute;
  address: string;
  args: OscArgument[];
  at: number;
}
/** How many of the latest messages are kept for the sync panel's list. */
export const OSC_LOG_SIZE = 10;

/** The latest `capacity` items in a fixed array, the oldest overwritten: no allocation per item. */
export class RingBuffer<T> {
  private readonly items: Array<T | undefined>;
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.capacity, this.size + 1);
  }

  /** Newest first. */
  newestFirst(): T[] {
    const out: T[] = [];
    for (let i = 1; i <= this.size; i++) out.push(this.items[(this.next - i + this.capacity) % this.capacity]!);
    return out;
  }
}

const resolumeBridge = () => new OscBridgeClient(() => new WebSocket(RESOLUME_BRIDGE_URL), undefined, resolumePreference, 'resolume');

/**
 * Everything the studio tells the outside world: playback and pad events
 * as OSC (through the local bridge's default route) and MIDI (to the chosen Web MIDI output), plus MIDI
 * clock at 24 per quarter note while something plays; while Resolume is connected (the bridge's Resolume
 * route), its tempo and downbeats in Resolume's own addresses. Counts what it actually sent, and keeps the
 * latest OSC messages sent.
 */
export class ControlOutputs {
  private output: MIDIOutput | null = null;
  private clock: { timer: ReturnType<typeof setInterval>; start: number; bpm: number; scheduledUntil: number } | null = null;
  private sentCount = 0;
  private readonly countListeners = new Set<(count: number) => void>();
  private readonly oscLog = new RingBuffer<SentOscMessage>(OSC_LOG_SIZE);
  private oscSeq = 0;
  private readonly oscListeners = new Set<(message: SentOscMessage) => void>();
  /** The tempo of the latest beat played (null before any). */
  private bpm: number | null = null;
  /** The tempo Resolume was last sent, and the target it went to (both null while not connected). */
  private resolumeTempo: { bpm: number; target: string } | null = null;

  constructor(
    /** The bridge's default route: the studio's /stemdeck messages to TouchDesigner or any OSC receiver. */
    readonly osc: OscBridgeClient = new OscBridgeClient(),
    /** The bridge's Resolume route; its on/off is the Resolume card's Connect. */
    readonly resolume: OscBridgeClient = resolumeBridge(),
    private readonly now: () => number = () => Date.now(),
  ) {
    // On connecting (and when the target moves) Resolume is told the tempo at once, not at the next change.
    resolume.onStatus((status) => {
      if (status.state !== 'connected') this.resolumeTempo = null;
      else if (this.bpm !== null && this.resolumeTempo?.target !== status.target) this.sendResolumeTempo(this.bpm);
    });
  }

  /** The latest OSC messages sent (at most OSC_LOG_SIZE), newest first. */
  get recentOsc(): SentOscMessage[] {
    return this.oscLog.newestFirst();
  }

  /** Called with every OSC message that went out, until the returned function is called. */
  onOscSent(listener: (message: SentOscMessage) => void): () => void {
    this.oscListeners.add(listener);
    return () => this.oscListeners.delete(listener);
  }

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

  /**
   * A playback event (transport, beat, stem level) out as OSC and, for transport and beats, MIDI; to
   * Resolume, the tempo when it changes and a resync on play and on every downbeat.
   */
  playback(event: PlaybackEvent): void {
    this.sendOsc(event.osc.address, event.osc.args);
    // Transport is a one-byte real-time message; a beat is note-on 36, velocity 127.
    if (event.type === 'transport') this.sendMidi([event.midi.status]);
    if (event.type === 'beat') this.sendNote(BEAT_NOTE, BEAT_VELOCITY);
    this.toResolume(event);
  }

  /**
   * The tempo of what is about to play (the loaded song's analysed BPM), known before any beat has played:
   * Resolume gets it at Connect and whenever it changes, as it does a beat's tempo.
   */
  noteTempo(bpm: number): void {
    if (!(bpm > 0) || bpm === this.bpm) return;
    this.bpm = bpm;
    if (this.resolumeTempo?.bpm !== bpm) this.sendResolumeTempo(bpm);
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

  private toResolume(event: PlaybackEvent): void {
    if (event.type === 'beat' && event.bpm > 0) {
      this.bpm = event.bpm;
      // A change, or the first tempo on this connection (none was known when it connected).
      if (this.resolumeTempo?.bpm !== event.bpm) this.sendResolumeTempo(event.bpm);
    }
    const downbeat = event.type === 'beat' && event.beat % BEATS_PER_BAR === 0;
    const play = event.type === 'transport' && event.action === 'play';
    if (downbeat || play) this.sendOsc(RESOLUME_RESYNC_ADDRESS, [{ type: 'i', value: 1 }], this.resolume);
  }

  private sendResolumeTempo(bpm: number): void {
    const target = this.resolume.status.target;
    if (target && this.sendOsc(RESOLUME_TEMPO_ADDRESS, [{ type: 'f', value: resolumeTempoValue(bpm) }], this.resolume)) {
      this.resolumeTempo = { bpm, target };
    }
  }

  private sendOsc(address: string, args: OscArgument[], client: OscBridgeClient = this.osc): boolean {
    if (!client.send(address, args)) return false;
    const message: SentOscMessage = { seq: ++this.oscSeq, route: client.route, address, args, at: this.now() };
    this.oscLog.push(message);
    for (const listener of this.oscListeners) listener(message);
    this.count();
    return true;
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
