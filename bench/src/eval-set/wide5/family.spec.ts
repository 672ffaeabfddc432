import { Rng } from '../random';
import type { MidiSong } from '../smf';
import { DRUM_KEYS } from '../styles';
import { wideCatalog } from '../wide/catalog';
import { CHOIRS, drawnSampleKit, poolFor, wide5Files } from './family';
import { detectPitch, playPitched, preparePitched, type ChannelVoice } from './sampler';

const RATE = 44100;

/** A band-limited sawtooth (10 partials) at `hz`, its amplitude following `envelope(t)`. */
function saw(hz: number, seconds: number, envelope: (t: number) => number): Float32Array {
  const x = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < x.length; i++) {
    const t = i / RATE;
    let v = 0;
    for (let k = 1; k <= 10; k++) v += Math.sin(2 * Math.PI * k * hz * t) / k;
    x[i] = 0.3 * v * envelope(t);
  }
  return x;
}

const stereo = (x: Float32Array) => ({ sampleRate: RATE, left: x, right: x.slice() });
const cents = (hz: number, reference: number) => 1200 * Math.log2(hz / reference);

describe('the fifth family\'s pitched sampler', () => {
  it('finds a recording\'s pitch, and none in noise', () => {
    expect(Math.abs(cents(detectPitch(saw(220, 1, () => 1), RATE)!, 220))).toBeLessThan(3);
    expect(Math.abs(cents(detectPitch(saw(55, 1, () => 1), RATE)!, 55))).toBeLessThan(3);
    const rng = new Rng(7);
    const noise = Float32Array.from({ length: RATE }, () => rng.range(-0.5, 0.5));
    expect(detectPitch(noise, RATE)).toBeUndefined();
  });

  it('loops a sustained recording over a seamless crossfade and plays a decaying one once', () => {
    const held = preparePitched('held', stereo(saw(261.63, 2, () => 1)))!;
    expect(held.root).toBeCloseTo(60, 1);
    expect(held.loop).toBeDefined();
    const { start, end } = held.loop!;
    // Reading on from the loop's end into its start: the step is no larger than the wave's own steps.
    const jump = Math.abs(held.audio.left[start] - held.audio.left[end - 1]);
    const biggestStep = Math.max(...Array.from({ length: 2000 }, (_, i) => Math.abs(held.audio.left[start + i + 1] - held.audio.left[start + i])));
    expect(jump).toBeLessThanOrEqual(biggestStep * 1.5);
    const plucked = preparePitched('plucked', stereo(saw(261.63, 2, (t) => Math.exp(-4 * t))))!;
    expect(plucked.loop).toBeUndefined();
  });

  it('plays a note at its pitch, held past the recording\'s length by the loop, and released after it', () => {
    const sample = preparePitched('held', stereo(saw(261.63, 0.8, () => 1)))!;
    const voice: ChannelVoice = { sample, releaseSeconds: 0.1, toneHz: 20000 };
    // 120 BPM: a G4 from beat 0 for 4 beats (2 s), far longer than the 0.8 s recording.
    const song: MidiSong = { microsPerQuarter: 500_000, channels: [{ channel: 0, program: 48, pan: 64 }], notes: [{ channel: 0, beat: 0, beats: 4, pitch: 67, velocity: 127 }], endBeat: 6 };
    const out = playPitched(song, new Map([[0, voice]]), RATE, 3 * RATE, { roomSize: 0.5, damping: 0.5, width: 1, level: 0 });
    const hz = detectPitch(out.left.subarray(Math.round(1.4 * RATE)), RATE)!;
    expect(Math.abs(cents(hz, 392))).toBeLessThan(10);
    const level = (from: number, to: number) => Math.sqrt(out.left.subarray(from * RATE, to * RATE).reduce((s, v) => s + v * v, 0) / ((to - from) * RATE));
    expect(level(1.5, 1.9)).toBeGreaterThan(0.5 * level(0.1, 0.5));
    expect(level(2.2, 3)).toBeLessThan(1e-3 * level(0.1, 0.5));
  });
});

describe('the fifth training family', () => {
  it('names only the two libraries\' files, and a pool for every General MIDI program', () => {
    for (const file of wide5Files()) expect(file).toMatch(/^\/usr\/share\/(lmms\/samples\/.+\.ogg|sonic-pi\/samples\/[^/]+\.flac)$/);
    for (let program = 0; program < 128; program++) expect(poolFor(program).files.length).toBeGreaterThan(0);
    expect(poolFor(53)).toBe(CHOIRS);
  });

  it('draws a kit with a recording for every drum voice the parts play, and different kits for different songs', () => {
    const { kit, voices } = drawnSampleKit(new Rng(1));
    for (const voice of Object.keys(DRUM_KEYS)) expect(kit[voices[voice as keyof typeof DRUM_KEYS]!].layers).toHaveLength(1);
    const kicks = new Set(Array.from({ length: 40 }, (_, seed) => drawnSampleKit(new Rng(seed + 1)).kit[0].layers[0].file));
    expect(kicks.size).toBeGreaterThan(10);
  });

  it('writes songs of its own', () => {
    const wide5 = wideCatalog(8, 30, 1, 'wide5');
    expect(wide5.map((t) => t.id)).toEqual(Array.from({ length: 8 }, (_, i) => `wide5-1-000${i + 1}`));
    expect(wide5.map((t) => t.seed)).not.toEqual(wideCatalog(8, 30, 1, 'wide4').map((t) => t.seed));
    expect(wide5.filter((t) => t.vocal === 'soundfont')).toHaveLength(2);
  });
});
