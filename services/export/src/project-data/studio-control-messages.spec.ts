import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STEM_TYPES } from '@stemdeck/proto';
import * as playback from '../../../../frontend/src/audio/playbackEvents';
import { DEFAULT_OSC_TARGET, OSC_BRIDGE_URL } from '../../../../frontend/src/instruments/oscBridgeClient';
import { loadConfig as loadBridgeConfig } from '../../../../tools/osc-bridge/src/config';
import {
  BEAT_NOTE,
  CLOCK_PULSES_PER_QUARTER,
  LEVEL_INTERVAL_MS,
  LEVEL_THRESHOLD,
  levelAddress,
  MIDI_CLOCK,
  MIDI_CONTINUE,
  MIDI_NOTE_OFF,
  MIDI_NOTE_ON,
  MIDI_START,
  MIDI_STOP,
  NOTE_LENGTH_MS,
  OSC_BRIDGE_WEBSOCKET,
  OSC_DEFAULT_TARGET,
  oscMidiConfig,
  PAD_NAMES,
  PAD_NOTE_BASE,
  padAddress,
  STUDIO_OSC_PREFIX,
  STUDIO_VELOCITY,
  studioMidiMessages,
  studioOscMessages,
} from './studio-control-messages';

const FRONTEND = join(__dirname, '../../../../frontend/src');
const source = (path: string): string => readFileSync(join(FRONTEND, path), 'utf8');
/** The number a `const NAME = …` in a browser source holds (decimal or hex). */
const constant = (text: string, name: string): number => {
  const match = new RegExp(`const ${name}\\s*=\\s*(0x[0-9a-f]+|\\d+)`, 'i').exec(text);
  if (!match) throw new Error(`${name} is no longer a constant in the browser's source`);
  return Number(match[1]);
};

/**
 * The export's table of what the studio sends is a copy of the browser's code: these specs read that code
 * (importing what is importable, reading the rest) and fail when the two drift apart.
 */
describe('the OSC/MIDI table against the studio\'s own code', () => {
  it('uses the playback events\' prefix, addresses, notes and threshold', () => {
    expect(STUDIO_OSC_PREFIX).toBe(playback.OSC_PREFIX);
    expect(playback.transportEvent('play', 1.5, false, 0).osc).toMatchObject({ address: `${STUDIO_OSC_PREFIX}/transport`, args: ['play', 1.5] });
    expect(playback.beatEvent(7, 120, 3.5, 0).osc).toMatchObject({ address: `${STUDIO_OSC_PREFIX}/beat`, args: [7, 120] });
    for (const stem of STEM_TYPES) expect(playback.levelEvent(stem, 0.3, 0).osc.address).toBe(levelAddress(stem));
    expect(playback.transportEvent('play', 0, false, 0).midi.status).toBe(MIDI_START);
    expect(playback.transportEvent('play', 4, true, 0).midi.status).toBe(MIDI_CONTINUE);
    expect(playback.transportEvent('pause', 4, false, 0).midi.status).toBe(MIDI_STOP);
    expect(playback.transportEvent('stop', 0, false, 0).midi.status).toBe(MIDI_STOP);
    expect(playback.beatEvent(0, 120, 0, 0).midi).toMatchObject({ status: MIDI_NOTE_ON, data1: BEAT_NOTE, data2: STUDIO_VELOCITY });
    expect(playback.LEVEL_EVENT_THRESHOLD).toBe(LEVEL_THRESHOLD);
  });

  it('lists every OSC address the browser builds (a new one must be added here)', () => {
    const templates = ['audio/playbackEvents.ts', 'instruments/controlOutputs.ts'].flatMap((path) =>
      [...source(path).matchAll(/`\$\{OSC_PREFIX\}(\/[^`]*)`/g)].map((match) => match[1]),
    );
    expect(templates.sort()).toEqual(['/beat', '/pad/${name.toLowerCase()}', '/stem/${stem}_rms', '/transport']);
    const listed = studioOscMessages(10).map((message) => message.address);
    expect(listed).toEqual([
      `${STUDIO_OSC_PREFIX}/transport`,
      `${STUDIO_OSC_PREFIX}/beat`,
      ...STEM_TYPES.map(levelAddress),
      ...PAD_NAMES.map(padAddress),
    ]);
  });

  it('has the pads in the panel\'s order, named as the browser sends them, at the panel\'s velocity', () => {
    const pads = source('features/pads/PerformancePads.tsx');
    const names = [.../const PADS[^=]*=\s*\[([\s\S]*?)\];/.exec(pads)![1]!.matchAll(/name:\s*'([^']+)'/g)].map((match) => match[1]!.toLowerCase());
    expect(names).toEqual([...PAD_NAMES]);
    expect(constant(pads, 'VELOCITY')).toBe(STUDIO_VELOCITY);
  });

  it('has the control outputs\' pad notes, note length, clock and note-off', () => {
    const outputs = source('instruments/controlOutputs.ts');
    expect(constant(outputs, 'PAD_NOTE_BASE')).toBe(PAD_NOTE_BASE);
    expect(constant(outputs, 'NOTE_MS')).toBe(NOTE_LENGTH_MS);
    expect(constant(outputs, 'MIDI_NOTE_OFF')).toBe(MIDI_NOTE_OFF);
    expect(constant(outputs, 'MIDI_CLOCK')).toBe(MIDI_CLOCK);
    expect(constant(outputs, 'CLOCK_PPQ')).toBe(CLOCK_PULSES_PER_QUARTER);
  });

  it('sends levels as often as the stem player\'s ticker does', () => {
    const transport = source('audio/stemTransport.ts');
    expect(constant(transport, 'TICK_MS') * constant(transport, 'LEVEL_EVERY_TICKS')).toBe(LEVEL_INTERVAL_MS);
  });

  it('names the OSC bridge\'s own defaults', () => {
    const bridge = loadBridgeConfig([], {});
    expect(OSC_BRIDGE_WEBSOCKET).toBe(OSC_BRIDGE_URL);
    expect(OSC_BRIDGE_WEBSOCKET).toBe(`ws://127.0.0.1:${bridge.port}`);
    expect(OSC_DEFAULT_TARGET).toEqual(bridge.target);
    expect(`${OSC_DEFAULT_TARGET.host}:${OSC_DEFAULT_TARGET.port}`).toBe(DEFAULT_OSC_TARGET);
  });
});

describe('osc-midi-config.json', () => {
  const config = oscMidiConfig({ id: 'p1', name: 'Song', durationSeconds: 200, bpm: 128, beatsPerBar: 4 });

  it('gives every OSC argument a type tag and a range or its values', () => {
    for (const message of config.osc.messages) {
      expect(message.address.startsWith(`${STUDIO_OSC_PREFIX}/`)).toBe(true);
      for (const arg of message.args) {
        expect(['s', 'i', 'f', 'i|f']).toContain(arg.type);
        if (arg.type === 's') expect(arg.values?.length).toBeGreaterThan(0);
        else expect(arg.min).toEqual(expect.any(Number));
      }
    }
    expect(config.osc.messages[0]!.args[1]).toMatchObject({ name: 'position', min: 0, max: 200 });
    expect(config.osc.bridge).toEqual({ websocket: 'ws://127.0.0.1:7400', defaultTarget: { host: '127.0.0.1', port: 7000 } });
  });

  it('lists the MIDI bytes as sent: transport, clock, the beat note and a note per pad', () => {
    const messages = studioMidiMessages();
    expect(messages.map((message) => message.bytes)).toEqual([
      [250], [251], [252], [0xf8], [0x90, 36, 127],
      ...PAD_NAMES.map((_, index) => [0x90, 48 + index, 127]),
    ]);
    expect(messages.find((message) => message.bytes[1] === 48)!.name).toBe('pad vocals (note 48, C3)');
    for (const byte of messages.flatMap((message) => message.bytes)) {
      expect(Number.isInteger(byte) && byte >= 0 && byte <= 255).toBe(true);
    }
  });
});
