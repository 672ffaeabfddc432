import { csoundDocument, drawPatch, instrumentFor } from './orchestra';
import { Rng } from '../random';
import type { MidiSong } from '../smf';

const SONG: MidiSong = {
  microsPerQuarter: 500_000,
  channels: [
    { channel: 0, program: 0, pan: 0, volume: 127, reverbSend: 64 },
    { channel: 1, program: 48, pan: 127, volume: 100 },
  ],
  notes: [],
  endBeat: 8,
};
const REVERB = { roomSize: 0.5, damping: 0.2, width: 1, level: 0.8 };

describe('the third family\'s Csound orchestra', () => {
  it('plays every General MIDI family on one of its synthesized instruments, the voice patches on the FOF singer', () => {
    expect(instrumentFor(0)).toBe(1);
    expect(instrumentFor(33)).toBe(5);
    expect([52, 53, 54].map(instrumentFor)).toEqual([10, 10, 10]);
    for (let program = 0; program < 128; program++) expect([1, 2, 3, 4, 5, 7, 8, 9, 10]).toContain(instrumentFor(program));
  });

  it('maps all 128 programs (1-based for pgmassign), the bass family to the drawn bass instrument', () => {
    const patch = { ...drawPatch(new Rng(3)), bassInstrument: 6 as const };
    const csd = csoundDocument(SONG, 'bass.mid', 'bass.wav', 44100, 20, REVERB, patch);
    expect(csd.match(/^pgmassign /gm)).toHaveLength(128);
    expect(csd).toContain('pgmassign 1, 1\n');
    expect(csd).toContain('pgmassign 34, 6\n');
    expect(csd).toContain('pgmassign 54, 10\n');
    expect(csd).toContain('-o bass.wav -F bass.mid');
    expect(csd).toMatch(/^i 99 0 21\.00$/m);
  });

  it('takes each channel\'s pan, volume and reverb send from the song', () => {
    const csd = csoundDocument(SONG, 'other.mid', 'other.wav', 44100, 20, REVERB, drawPatch(new Rng(1)));
    const table = (name: string) => csd.match(new RegExp(`^${name} ftgen 0, 0, 16, -2, (.*)$`, 'm'))![1].split(', ').map(Number);
    expect(table('giPan').slice(0, 3)).toEqual([0, 1, 0.5]);
    expect(table('giVol')[0]).toBe(1);
    expect(table('giVol')[1]).toBeCloseTo((100 / 127) ** 2, 3);
    expect(table('giSend').slice(0, 2)).toEqual([0.5039, 0]);
  });

  it('draws a timbre per render: the same seed, the same document; every organ has its unison drawbar out', () => {
    const a = csoundDocument(SONG, 'x.mid', 'x.wav', 44100, 20, REVERB, drawPatch(new Rng(9)));
    expect(csoundDocument(SONG, 'x.mid', 'x.wav', 44100, 20, REVERB, drawPatch(new Rng(9)))).toBe(a);
    expect(csoundDocument(SONG, 'x.mid', 'x.wav', 44100, 20, REVERB, drawPatch(new Rng(10)))).not.toBe(a);
    for (let seed = 0; seed < 50; seed++) expect(drawPatch(new Rng(seed)).drawbars[1]).toBeGreaterThanOrEqual(0.5);
  });
});
