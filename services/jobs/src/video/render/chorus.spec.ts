import { chooseChorus, type SongFeatures } from './chorus';

const FRAME_RATE = 10;

/** Chords as pitch classes (C = 0): the chorus and verse progressions. */
const C = [0, 4, 7];
const G = [7, 11, 2];
const Am = [9, 0, 4];
const F = [5, 9, 0];
const Dm = [2, 5, 9];
const E = [4, 8, 11];
const Bb = [10, 2, 5];
const D = [2, 6, 9];
const Em = [4, 7, 11];

interface Part {
  bars: number;
  db: number;
  /** One chord per bar, cycled. */
  chords: number[][];
}

/** A song made of parts, bar by bar: each bar at its level, its chord in the pitch classes. */
function song(parts: Part[], bpm: number, options: { chroma?: boolean; offsetSeconds?: number } = {}): { features: SongFeatures; seconds: number } {
  const barSeconds = (4 * 60) / bpm;
  const offset = options.offsetSeconds ?? 0;
  const seconds = offset + parts.reduce((sum, part) => sum + part.bars, 0) * barSeconds;
  const frames = Math.ceil(seconds * FRAME_RATE);
  const energy = new Float64Array(frames).fill(10 ** (-60 / 10));
  const chroma = new Float64Array(frames * 12);
  let start = offset;
  for (const part of parts) {
    for (let bar = 0; bar < part.bars; bar++) {
      const chord = part.chords[bar % part.chords.length]!;
      const from = Math.round((start + bar * barSeconds) * FRAME_RATE);
      const to = Math.round((start + (bar + 1) * barSeconds) * FRAME_RATE);
      for (let frame = from; frame < Math.min(frames, to); frame++) {
        energy[frame] = 10 ** (part.db / 10);
        for (const pc of chord) chroma[frame * 12 + pc] = 1;
      }
    }
    start += part.bars * barSeconds;
  }
  return { features: { frameRate: FRAME_RATE, energy, chroma: options.chroma === false ? undefined : chroma }, seconds };
}

const intro: Part = { bars: 8, db: -30, chords: [C] };
const verse: Part = { bars: 16, db: -20, chords: [Am, F, C, G] };
const chorus: Part = { bars: 16, db: -10, chords: [C, G, Am, F] };
const outro: Part = { bars: 8, db: -30, chords: [C] };

describe('chooseChorus', () => {
  it('picks the loud repeated part: the window starts on a chorus\'s first bar', () => {
    // 120 BPM: bars of 2 s; choruses at bars 24 and 56 (48 s and 112 s).
    const { features, seconds } = song([intro, verse, chorus, verse, chorus, outro], 120);
    const choice = chooseChorus(features, { songSeconds: seconds, bpm: 120, beatsPerBar: 4 });
    expect([48, 112]).toContain(choice.startSeconds);
    expect(choice.endSeconds - choice.startSeconds).toBe(30);
  });

  it('prefers a repeated chorus to a louder part heard once', () => {
    const bridge: Part = { bars: 16, db: -8, chords: [Dm, E, Bb, E] };
    const { features, seconds } = song([intro, verse, chorus, verse, chorus, bridge, outro], 120);
    const choice = chooseChorus(features, { songSeconds: seconds, bpm: 120, beatsPerBar: 4 });
    expect([48, 112]).toContain(choice.startSeconds);
    // (The bridge, bars 72–88, is the loudest 30 s: loudness alone would have taken it.)
  });

  it('finds a chorus only 1.5 dB louder than its verses, whose chords it shares in another order', () => {
    // Like the evaluation set's 4-minute song: verse IV–I–V–vi, chorus I–vi–IV–V in G, intro and outro on the
    // verse's chords, a double chorus in the middle (bars 40–56: 80–112 s at 120 BPM).
    const verseChords = [C, G, D, Em];
    const chorusChords = [G, Em, C, D];
    const v: Part = { bars: 8, db: -17.5, chords: verseChords };
    const c: Part = { bars: 8, db: -16, chords: chorusChords };
    const parts: Part[] = [
      { bars: 4, db: -20, chords: verseChords }, v, c, v, c, { bars: 4, db: -17, chords: [G, C, G, D] },
      { ...c, bars: 16 }, { bars: 4, db: -20, chords: verseChords }, c, v, c, v, c, v, c, { ...v, bars: 4 },
    ];
    const { features, seconds } = song(parts, 120);
    const choice = chooseChorus(features, { songSeconds: seconds, bpm: 120, beatsPerBar: 4 });
    expect(choice.startSeconds).toBeGreaterThanOrEqual(80);
    expect(choice.endSeconds).toBeLessThanOrEqual(112);
  });

  it('without pitch classes the loudest stretch wins', () => {
    const { features, seconds } = song([intro, verse, { ...chorus, bars: 20 }, verse, outro], 120, { chroma: false });
    const choice = chooseChorus(features, { songSeconds: seconds, bpm: 120, beatsPerBar: 4 });
    // The loud part is bars 24–44 (48–88 s): the window lies inside it.
    expect(choice.startSeconds).toBeGreaterThanOrEqual(48);
    expect(choice.endSeconds).toBeLessThanOrEqual(88);
  });

  it('starts on a bar line of the grid even when the loud part does not', () => {
    const bpm = 97; // bars of 2.474 s
    const barSeconds = (4 * 60) / bpm;
    const { features, seconds } = song([intro, verse, chorus, verse, chorus, outro], bpm, { offsetSeconds: 0.9 });
    const choice = chooseChorus(features, { songSeconds: seconds, bpm, beatsPerBar: 4 });
    const bar = choice.startSeconds / barSeconds;
    expect(Math.abs(bar - Math.round(bar))).toBeLessThan(1e-9);
    // The choruses start 0.9 s after bar lines 24 and 56 and last 16 bars: the window lies inside one of them.
    const inside = [24, 56].some((line) => {
      const start = 0.9 + line * barSeconds;
      return choice.startSeconds >= start && choice.endSeconds <= start + 16 * barSeconds;
    });
    expect(inside).toBe(true);
    expect(choice.endSeconds - choice.startSeconds).toBeCloseTo(30, 9);
  });

  it('keeps the window inside the song when the loudest part is at its end', () => {
    const { features, seconds } = song([intro, verse, { ...chorus, bars: 10 }], 120, { chroma: false });
    const choice = chooseChorus(features, { songSeconds: seconds, bpm: 120, beatsPerBar: 4 });
    expect(choice.endSeconds).toBeLessThanOrEqual(seconds);
    expect(choice.startSeconds).toBe(seconds - 30); // 68 − 30 = 38 s, bar 19
  });

  it('uses the whole of a song shorter than the window', () => {
    const { features } = song([{ bars: 10, db: -10, chords: [C] }], 120);
    expect(chooseChorus(features, { songSeconds: 20, bpm: 120, beatsPerBar: 4 })).toEqual({ startSeconds: 0, endSeconds: 20 });
    expect(chooseChorus(features, { songSeconds: 30, bpm: 120, beatsPerBar: 4 })).toEqual({ startSeconds: 0, endSeconds: 30 });
  });

  it('takes the song\'s start for a silent song', () => {
    const silent: SongFeatures = { frameRate: FRAME_RATE, energy: new Float64Array(900) };
    expect(chooseChorus(silent, { songSeconds: 90, bpm: 120, beatsPerBar: 4 })).toEqual({ startSeconds: 0, endSeconds: 30 });
  });
});
