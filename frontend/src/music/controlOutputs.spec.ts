import { CLOCK_PPQ, clockPulses } from './controlOutputs';
import { parseTarget } from './oscBridgeClient';
import { parseNoteMessage } from './midiInput';

describe('MIDI clock pulses', () => {
  it('runs 24 per quarter note at the tempo (120 BPM: every 20.83 ms)', () => {
    const pulses = clockPulses(1000, 120, 1000, 1500);
    expect(pulses).toHaveLength(CLOCK_PPQ);
    expect(pulses[1]! - pulses[0]!).toBeCloseTo(500 / 24, 6);
  });

  it('continues where the last window ended, without gaps or repeats', () => {
    const start = 0;
    const windows = [0, 37, 100, 133, 250].map((from, i, all) => clockPulses(start, 128, from, all[i + 1] ?? 400));
    const joined = windows.flat();
    expect(joined).toEqual(clockPulses(start, 128, 0, 400));
    expect(new Set(joined).size).toBe(joined.length);
  });
});

describe('OSC target', () => {
  it('reads host:port and names what is wrong', () => {
    expect(parseTarget(' 127.0.0.1:7000 ')).toEqual({ host: '127.0.0.1', port: 7000 });
    expect(parseTarget('resolume.local:7001')).toEqual({ host: 'resolume.local', port: 7001 });
    expect(parseTarget('127.0.0.1')).toEqual({ error: 'Enter the OSC target as host:port, e.g. 127.0.0.1:7000' });
    expect(parseTarget('127.0.0.1:70000')).toEqual({ error: 'The port must be between 1 and 65535' });
  });
});

describe('MIDI input notes', () => {
  it('reads note-on, note-off and note-on with velocity 0 on any channel', () => {
    expect(parseNoteMessage(Uint8Array.of(0x93, 60, 127))).toEqual({ type: 'on', note: 60, velocity: 1 });
    expect(parseNoteMessage(Uint8Array.of(0x80, 60, 64))).toEqual({ type: 'off', note: 60, velocity: 0 });
    expect(parseNoteMessage(Uint8Array.of(0x90, 60, 0))).toEqual({ type: 'off', note: 60, velocity: 0 });
    expect(parseNoteMessage(Uint8Array.of(0xf8))).toBeNull();
    expect(parseNoteMessage(Uint8Array.of(0xb0, 7, 100))).toBeNull();
  });
});
