import { resolumeTempoValue as exportResolumeTempoValue } from '../../../services/export/src/project-data/resolume-kit';
import { beatEvent, levelEvent, transportEvent } from '../audio/playbackEvents';
import { CLOCK_PPQ, clockPulses, ControlOutputs, MIDI_CLOCK, OSC_LOG_SIZE, resolumeTempoValue, RingBuffer, type SentOscMessage } from './controlOutputs';
import { parseTarget } from './oscBridgeClient';
import { parseNoteMessage } from './midiInput';
import { fakeBridgeClient } from './testing/fakeBridge.harness';

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

describe('the OSC message log', () => {
  it('keeps the latest items of a ring buffer, newest first', () => {
    const ring = new RingBuffer<number>(3);
    expect(ring.newestFirst()).toEqual([]);
    ring.push(1);
    ring.push(2);
    expect(ring.newestFirst()).toEqual([2, 1]);
    for (let i = 3; i <= 25; i++) ring.push(i);
    expect(ring.newestFirst()).toEqual([25, 24, 23]);
  });
});

describe("Resolume's tempo value", () => {
  it('is the export kit\'s: 0..1 across 20..500 BPM, clamped', () => {
    for (const bpm of [0, 19.9, 20, 60, 98.04, 120, 128, 174.5, 400, 500, 900]) {
      expect(resolumeTempoValue(bpm)).toBe(exportResolumeTempoValue(bpm));
    }
    expect(resolumeTempoValue(120)).toBeCloseTo(100 / 480, 12);
    expect([resolumeTempoValue(20), resolumeTempoValue(500)]).toEqual([0, 1]);
  });
});

describe('ControlOutputs over the OSC bridge', () => {
  function setup() {
    const general = fakeBridgeClient('default');
    const resolume = fakeBridgeClient('resolume');
    let now = 1_000;
    const outputs = new ControlOutputs(general.client, resolume.client, () => now++);
    const logged: SentOscMessage[] = [];
    outputs.onOscSent((message) => logged.push(message));
    const connectGeneral = () => {
      general.client.watch();
      general.sockets.at(-1)!.answer({ host: '127.0.0.1', port: 9000 }, 'default');
    };
    const connectResolume = (port = 7000) => {
      resolume.client.watch();
      resolume.client.setEnabled(true);
      resolume.sockets.at(-1)!.answer({ host: '127.0.0.1', port }, 'resolume');
    };
    const resolumeSent = () => resolume.sockets.flatMap((socket) => socket.oscSent).map(({ address, types, args }) => ({ address, types, args }));
    const beats = (from: number, to: number, bpm: number) => {
      for (let beat = from; beat < to; beat++) outputs.playback(beatEvent(beat, bpm, (beat * 60) / bpm, 0));
    };
    return { outputs, general, resolume, logged, connectGeneral, connectResolume, resolumeSent, beats };
  }
  const tempo = (bpm: number) => ({ address: '/composition/tempocontroller/tempo', types: ',f', args: [expect.closeTo(resolumeTempoValue(bpm), 6)] });
  const resync = { address: '/composition/tempocontroller/resync', types: ',i', args: [1] };

  it('logs nothing and counts nothing while no route is connected', () => {
    const { outputs, beats, logged } = setup();
    outputs.playback(transportEvent('play', 0, false, 0));
    beats(0, 8, 120);
    outputs.pad('Vocals', 0, 127);
    expect(outputs.recentOsc).toEqual([]);
    expect(logged).toEqual([]);
    expect(outputs.sent).toBe(0);
  });

  it('logs each message sent on the default route with its arguments and time; the latest 10, newest first', () => {
    const { outputs, beats, connectGeneral, general, logged } = setup();
    connectGeneral();
    beats(0, 15, 120);
    expect(general.sockets[0]!.oscSent).toHaveLength(15);
    expect(logged).toHaveLength(15);
    const recent = outputs.recentOsc;
    expect(recent).toHaveLength(OSC_LOG_SIZE);
    expect(recent.map((message) => message.args[0])).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
    expect(recent[0]).toEqual({ seq: 15, route: 'default', address: '/stemdeck/beat', args: [14, 120], at: 1_014 });
    expect(outputs.sent).toBe(15);
  });

  it('tells a connected Resolume the tempo at once, resyncs on play and every downbeat, and the tempo again only when it changes', () => {
    const { outputs, beats, connectResolume, resolumeSent, general, logged } = setup();
    beats(0, 2, 120); // nothing connected yet: the tempo is only remembered
    connectResolume();
    expect(resolumeSent()).toEqual([tempo(120)]);

    outputs.playback(transportEvent('play', 0, false, 0));
    beats(0, 9, 120);
    beats(9, 13, 128);
    expect(resolumeSent()).toEqual([tempo(120), resync, resync, resync, resync, tempo(128), resync]);
    // The studio's own messages do not go to Resolume's route, nor Resolume's to the default one.
    expect(general.sockets).toHaveLength(0);
    expect(logged.every((message) => message.route === 'resolume')).toBe(true);
    expect(logged.map((message) => message.address).slice(0, 2)).toEqual(['/composition/tempocontroller/tempo', '/composition/tempocontroller/resync']);
    expect(outputs.recentOsc[0]).toMatchObject({ route: 'resolume', address: '/composition/tempocontroller/resync', args: [{ type: 'i', value: 1 }] });
  });

  it('sends the tempo as a float at the ends of the range too, and on the first beat when none was known at connect', () => {
    const { beats, connectResolume, resolumeSent } = setup();
    connectResolume();
    expect(resolumeSent()).toEqual([]);
    beats(1, 2, 20);
    beats(2, 3, 500);
    expect(resolumeSent()).toEqual([
      { address: '/composition/tempocontroller/tempo', types: ',f', args: [0] },
      { address: '/composition/tempocontroller/tempo', types: ',f', args: [1] },
    ]);
  });

  it("tells Resolume the loaded song's tempo at Connect, before anything has played, and a new one when it changes", () => {
    const { outputs, beats, connectResolume, resolumeSent } = setup();
    outputs.noteTempo(98);
    connectResolume();
    expect(resolumeSent()).toEqual([tempo(98)]);
    outputs.noteTempo(98);
    beats(0, 1, 98);
    expect(resolumeSent()).toEqual([tempo(98), resync]);
    outputs.noteTempo(126);
    expect(resolumeSent()).toEqual([tempo(98), resync, tempo(126)]);
  });

  it('tells Resolume the tempo again when its target moves, and stops sending when disconnected', () => {
    const { outputs, beats, connectResolume, resolume, resolumeSent, logged } = setup();
    connectResolume();
    beats(0, 1, 120);
    expect(resolumeSent()).toEqual([tempo(120), resync]);
    resolume.client.setTarget({ host: '127.0.0.1', port: 7001 });
    resolume.sockets[0]!.status({ host: '127.0.0.1', port: 7001 }, 'resolume');
    expect(resolumeSent()).toEqual([tempo(120), resync, tempo(120)]);

    resolume.client.setEnabled(false);
    const before = logged.length;
    outputs.playback(transportEvent('play', 0, false, 0));
    beats(0, 8, 120);
    expect(resolumeSent()).toHaveLength(3);
    expect(logged).toHaveLength(before);

    // Connected again: the tempo at once on the new connection.
    connectResolume(7001);
    expect(resolume.sockets).toHaveLength(2);
    expect(resolume.sockets[1]!.oscSent).toEqual([tempo(120)]);
  });
});
