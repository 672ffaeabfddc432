import type { VocalNote } from '../parts/melody';
import { festivalNote, HIGHEST_SUNG_PITCH, singingXml, sungPhrases } from '../voice/sung';
import { wideCatalog } from '../wide/catalog';
import { WIDE6_FAMILY } from './family';

const note = (beat: number, beats: number, pitch: number, slur = false): VocalNote => ({ beat, beats, pitch, velocity: 90, consonant: 'l', vowel: 'a', slur });

describe("the sixth family's sung words", () => {
  it('gives each word as many notes as it has syllables, sung on the first, and restarts a line that runs out', () => {
    // One phrase of six notes, the fourth a melisma on the third syllable: five syllables.
    const phrase = [note(0, 0.5, 60), note(0.5, 0.5, 62), note(1, 0.5, 64), note(1.5, 0.5, 65, true), note(2, 0.5, 67), note(2.5, 1, 69)];
    const [words] = sungPhrases(phrase, ['hold little on'], 0);
    expect(words.map((w) => w.word)).toEqual(['hold', 'little', 'on', 'hold', 'little']);
    // "little" counts one vowel group here (its final e is silent in the count): one note.
    expect(words.map((w) => [w.beat, w.beats, w.pitch])).toEqual([
      [0, 0.5, 60],
      [0.5, 0.5, 62],
      [1, 1, 64],
      [2, 0.5, 67],
      [2.5, 1, 69],
    ]);
    expect(words.map((w) => w.velocity)).toEqual([90, 90, 90, 90, 90]);
  });

  it('splits phrases where the melody breathes, each on its own line, and moves a phrase festival cannot reach down an octave', () => {
    const melody = [note(0, 1, 60), note(1, 1, 62), note(4, 1, 74), note(5, 1, 76)];
    const phrases = sungPhrases(melody, ['one', 'two'], 1);
    expect(phrases.map((p) => p.map((w) => w.word))).toEqual([['two', 'two'], ['one', 'one']]);
    expect(phrases[0].map((w) => w.pitch)).toEqual([60, 62]);
    expect(phrases[1].map((w) => w.pitch)).toEqual([62, 64]);
    for (const p of phrases) expect(Math.max(...p.map((w) => w.pitch))).toBeLessThanOrEqual(HIGHEST_SUNG_PITCH);
  });

  it("writes festival's markup: its note names, its tempo scaling, rests where the words leave gaps", () => {
    expect([festivalNote(69), festivalNote(60), festivalNote(61), festivalNote(47)]).toEqual(['A5', 'C5', 'C#5', 'B3']);
    const xml = singingXml(
      [
        { word: 'hold', beat: 4, beats: 1, pitch: 60, velocity: 90 },
        { word: 'on', beat: 5.5, beats: 2, pitch: 64, velocity: 90 },
      ],
      0.5,
    );
    // 120 BPM: half a second a beat, which festival's singing mode reads from BPM="100".
    expect(xml).toContain('<SINGING BPM="100">');
    expect(xml).toContain('<DURATION BEATS="1"><PITCH NOTE="C5">hold</PITCH></DURATION>\n<REST BEATS="0.5"></REST>\n<DURATION BEATS="2"><PITCH NOTE="E5">on</PITCH></DURATION>');
  });

  it('sings words in half its songs, each voice in turn', () => {
    const songs = wideCatalog(8, 30, 1, 'wide6');
    expect(songs.filter((s) => s.vocal === 'sung')).toHaveLength(4);
    expect(songs.every((s) => s.id.startsWith('wide6-1-'))).toBe(true);
    const voices = [0, 1, 2, 3, 4, 5, 6].map((turn) => WIDE6_FAMILY.singingVoice!(turn).festival);
    expect(new Set(voices).size).toBe(7);
  });
});
