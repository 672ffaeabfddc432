import { beatEvent, levelEvent, transportEvent } from '../audio/playbackEvents';
import { CLOCK_PPQ, clockPulses, ControlOutputs, MIDI_CLOCK } from './controlOutputs';
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

describe('ControlOutputs to a MIDI output', () => {
  const fakeOutput = () => {
    const sent: Array<{ bytes: number[]; at?: number }> = [];
    return { sent, output: { send: (bytes: number[], at?: number) => void sent.push({ bytes: [...bytes], at }) } };
  };

  afterEach(() => jest.useRealTimers());

  it('sends beats as note-on 36 velocity 127 (and its note-off), transport as 250/251/252, pads as notes from 48', () => {
    const outputs = new ControlOutputs();
    const { sent, output } = fakeOutput();
    outputs.setMidiOutput(output as unknown as MIDIOutput);
    outputs.playback(transportEvent('play', 0, false, 0));
    outputs.playback(beatEvent(0, 120, 0, 0));
    outputs.playback(transportEvent('pause', 1, false, 0));
    outputs.playback(transportEvent('play', 1, true, 0));
    outputs.playback(levelEvent('vocals', 0.3, 0)); // OSC only
    outputs.pad('Bass', 2, 127);
    expect(sent.map((s) => s.bytes)).toEqual([[250], [0x90, 36, 127], [0x80, 36, 0], [252], [251], [0x90, 50, 127], [0x80, 50, 0]]);
    expect(sent[2]!.at).toBeGreaterThan(0); // the note-off is timestamped, not timed by the page
    expect(outputs.sent).toBe(5);
  });

  it('runs MIDI clock while playing, pulses timestamped ahead, and stops', () => {
    jest.useFakeTimers();
    const outputs = new ControlOutputs();
    const { sent, output } = fakeOutput();
    outputs.setMidiOutput(output as unknown as MIDIOutput);
    outputs.startClock(120);
    jest.advanceTimersByTime(1000);
    outputs.stopClock();
    const pulses = sent.filter((s) => s.bytes[0] === MIDI_CLOCK);
    // One second at 120 BPM is 48 pulses, plus the 100 ms scheduled ahead.
    expect(pulses.length).toBeGreaterThanOrEqual(48);
    expect(pulses.length).toBeLessThanOrEqual(48 + 6);
    const gaps = pulses.slice(1).map((p, i) => p.at! - pulses[i]!.at!);
    for (const gap of gaps) expect(gap).toBeCloseTo(500 / 24, 6);
    const count = sent.length;
    jest.advanceTimersByTime(500);
    expect(sent.length).toBe(count);
  });
});
