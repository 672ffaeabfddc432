/** A minimal Standard MIDI File (format 0) writer: notes, program/bank, controllers, one tempo. */

export const TICKS_PER_QUARTER = 960;

export interface MidiNote {
  channel: number;
  /** Start and length in quarter-note beats from the song start. */
  beat: number;
  beats: number;
  pitch: number;
  velocity: number;
}

export interface MidiControl {
  channel: number;
  beat: number;
  controller: number;
  value: number;
}

export interface MidiChannelSetup {
  channel: number;
  program: number;
  /** Bank select MSB; drum kits live in bank 128 on channel 10, which needs no bank message. */
  bank?: number;
  pan?: number;
  volume?: number;
  reverbSend?: number;
}

export interface MidiSong {
  microsPerQuarter: number;
  channels: MidiChannelSetup[];
  notes: MidiNote[];
  controls?: MidiControl[];
  /** Beat at which the file ends (End of Track). */
  endBeat: number;
}

/** Integer tempo in the file; callers time everything else from this value so all stems agree. */
export function microsPerQuarter(bpm: number): number {
  return Math.round(60_000_000 / bpm);
}

interface TimedEvent {
  tick: number;
  /** Sort key within a tick: setup, controllers, note-offs, then note-ons. */
  order: number;
  bytes: number[];
}

export function writeMidiFile(song: MidiSong): Buffer {
  const events: TimedEvent[] = [];
  const tick = (beat: number) => Math.max(0, Math.round(beat * TICKS_PER_QUARTER));
  const t = song.microsPerQuarter;
  events.push({ tick: 0, order: 0, bytes: [0xff, 0x51, 3, (t >> 16) & 0xff, (t >> 8) & 0xff, t & 0xff] });
  events.push({ tick: 0, order: 0, bytes: [0xff, 0x58, 4, 4, 2, 24, 8] });
  for (const c of song.channels) {
    const ch = c.channel;
    if (c.bank !== undefined) events.push({ tick: 0, order: 1, bytes: [0xb0 | ch, 0, c.bank] });
    events.push({ tick: 0, order: 2, bytes: [0xc0 | ch, c.program] });
    events.push({ tick: 0, order: 3, bytes: [0xb0 | ch, 7, c.volume ?? 100] });
    events.push({ tick: 0, order: 3, bytes: [0xb0 | ch, 10, c.pan ?? 64] });
    events.push({ tick: 0, order: 3, bytes: [0xb0 | ch, 91, c.reverbSend ?? 0] });
    events.push({ tick: 0, order: 3, bytes: [0xb0 | ch, 93, 0] });
  }
  for (const c of song.controls ?? []) {
    events.push({ tick: tick(c.beat), order: 4, bytes: [0xb0 | c.channel, c.controller, clamp7(c.value)] });
  }
  for (const n of song.notes) {
    const on = tick(n.beat);
    const off = Math.max(on + 1, tick(n.beat + n.beats));
    events.push({ tick: on, order: 6, bytes: [0x90 | n.channel, n.pitch, Math.max(1, clamp7(n.velocity))] });
    events.push({ tick: off, order: 5, bytes: [0x80 | n.channel, n.pitch, 0] });
  }
  // Array.prototype.sort is stable, so equal keys keep insertion order: deterministic bytes.
  events.sort((a, b) => a.tick - b.tick || a.order - b.order);

  const body: number[] = [];
  let last = 0;
  for (const e of events) {
    pushVarLen(body, e.tick - last);
    body.push(...e.bytes);
    last = e.tick;
  }
  pushVarLen(body, Math.max(0, tick(song.endBeat) - last));
  body.push(0xff, 0x2f, 0);

  const header = Buffer.alloc(14);
  header.write('MThd', 0, 'ascii');
  header.writeUInt32BE(6, 4);
  header.writeUInt16BE(0, 8); // format 0: one track holds every channel
  header.writeUInt16BE(1, 10);
  header.writeUInt16BE(TICKS_PER_QUARTER, 12);
  const trackHeader = Buffer.alloc(8);
  trackHeader.write('MTrk', 0, 'ascii');
  trackHeader.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, trackHeader, Buffer.from(body)]);
}

function clamp7(v: number): number {
  return Math.min(127, Math.max(0, Math.round(v)));
}

function pushVarLen(out: number[], value: number): void {
  const bytes = [value & 0x7f];
  while ((value >>= 7) > 0) bytes.unshift((value & 0x7f) | 0x80);
  out.push(...bytes);
}
