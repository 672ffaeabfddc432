import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { decodeWav } from '@stemdeck/audio';
import { resample } from '@stemdeck/audio/dist/dsp/resample';
import type { VocalNote } from '../parts/melody';
import { run } from '../render';
import { phrasesOf, place, syllables } from './speech';

/**
 * Words sung to the melody by festival's singing mode (Dominic Mazzoni's singing-mode.scm, shipped with Debian's
 * festival): its diphone voices, recordings of real speakers, re-pitched to each note and stretched to its length.
 * Unlike the formant singers they carry consonants and words; unlike the speakers they hold the melody's pitches.
 */
export interface SingingVoice {
  /** festival's voice name, e.g. "kal_diphone". */
  festival: string;
  /** Where the melody is centred (MIDI pitch): the speaker's own register. */
  rangeCentre: number;
}

/** festival's diphone voices that sing: American, Italian, Finnish and Czech speakers, all singing the English lines. */
export const SINGING_VOICES: readonly SingingVoice[] = [
  { festival: 'kal_diphone', rangeCentre: 52 },
  { festival: 'lp_diphone', rangeCentre: 60 },
  { festival: 'ked_diphone', rangeCentre: 50 },
  { festival: 'czech_dita', rangeCentre: 62 },
  { festival: 'pc_diphone', rangeCentre: 53 },
  { festival: 'suo_fi_lj_diphone', rangeCentre: 61 },
  { festival: 'hy_fi_mv_diphone', rangeCentre: 51 },
];

/** festival's singing mode holds its pitch at 500 Hz at most (B4, MIDI 71, is the highest note it reaches). */
export const HIGHEST_SUNG_PITCH = 71;
const LOWEST_SUNG_PITCH = 40;

/** One word as festival sings it: one note (the first of the word's syllables), held until the next word. */
export interface SungWord {
  word: string;
  beat: number;
  beats: number;
  pitch: number;
  velocity: number;
}

/**
 * The words of each phrase on its notes: a word takes as many notes as it has syllables (a melisma's slurred
 * notes go with the syllable before them) and is sung on the first one's pitch for all of them, since festival
 * drops the notes of a word beyond its own syllable count and would shorten the phrase. A line that runs out
 * before its phrase does starts again; a phrase out of the voice's reach moves by octaves into it.
 */
export function sungPhrases(notes: VocalNote[], lines: readonly string[], firstLine: number): SungWord[][] {
  return phrasesOf(notes).map((phrase, p) => {
    const groups: VocalNote[][] = [];
    for (const note of phrase) {
      if (note.slur && groups.length > 0) groups[groups.length - 1].push(note);
      else groups.push([note]);
    }
    const words = lines[(firstLine + p) % lines.length].split(' ');
    const sung: SungWord[] = [];
    for (let g = 0, w = 0; g < groups.length; w++) {
      const word = words[w % words.length];
      const taken = groups.slice(g, g + syllables(word)).flat();
      g += syllables(word);
      const last = taken[taken.length - 1];
      sung.push({ word, beat: taken[0].beat, beats: last.beat + last.beats - taken[0].beat, pitch: taken[0].pitch, velocity: taken[0].velocity });
    }
    const high = Math.max(...sung.map((s) => s.pitch));
    const low = Math.min(...sung.map((s) => s.pitch));
    const shift = high > HIGHEST_SUNG_PITCH ? -12 * Math.ceil((high - HIGHEST_SUNG_PITCH) / 12) : low < LOWEST_SUNG_PITCH ? 12 * Math.ceil((LOWEST_SUNG_PITCH - low) / 12) : 0;
    return sung.map((s) => ({ ...s, pitch: s.pitch + shift }));
  });
}

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

/** festival's note names count octaves from MIDI 0 ("A5" is 440 Hz, MIDI 69). */
export function festivalNote(pitch: number): string {
  return `${NOTE_NAMES[pitch % 12]}${Math.floor(pitch / 12)}`;
}

/**
 * One phrase as festival's SINGING markup, starting at its first word: a word's length runs to the next word,
 * a gap becomes a rest. festival's beat is 60/50 of the BPM it is given (its own scaling), so the tempo
 * written is 50 / (seconds per beat).
 */
export function singingXml(phrase: SungWord[], secondsPerBeat: number): string {
  const beats = (b: number) => String(Math.round(b * 1000) / 1000);
  const body: string[] = [];
  phrase.forEach((word, i) => {
    const next = phrase[i + 1];
    const held = next ? Math.min(word.beats, next.beat - word.beat) : word.beats;
    body.push(`<DURATION BEATS="${beats(held)}"><PITCH NOTE="${festivalNote(word.pitch)}">${word.word}</PITCH></DURATION>`);
    if (next && next.beat - word.beat - held > 0.001) body.push(`<REST BEATS="${beats(next.beat - word.beat - held)}"></REST>`);
  });
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE SINGING PUBLIC "-//SINGING//DTD SINGING mark up//EN" "Singing.v0_1.dtd" []>',
    `<SINGING BPM="${Math.round((50 / secondsPerBeat) * 1000) / 1000}">`,
    ...body,
    '</SINGING>',
    '',
  ].join('\n');
}

/**
 * A sung vocal as a dry mono track of `frames` samples: each phrase rendered by festival and placed at its first
 * note. festival is deterministic, so the result is too. A phrase festival fails on (a diphone voice can
 * crash on a word) is sung on "la" instead, with the same notes.
 */
export async function singWords(
  phrases: SungWord[][],
  secondsPerBeat: number,
  frames: number,
  sampleRate: number,
  voice: SingingVoice,
  workDir: string,
): Promise<Float32Array> {
  const out = new Float32Array(frames);
  const xmlPath = path.join(workDir, '.sung.xml');
  const wavPath = path.join(workDir, '.sung.wav');
  const render = async (phrase: SungWord[]) => {
    await fs.writeFile(xmlPath, singingXml(phrase, secondsPerBeat));
    await run('text2wave', ['-mode', 'singing', '-eval', `(voice_${voice.festival})`, xmlPath, '-o', wavPath]);
    const audio = decodeWav(await fs.readFile(wavPath));
    return resample(audio.left, audio.sampleRate, sampleRate);
  };
  for (const phrase of phrases) {
    const audio = await render(phrase).catch(() => render(phrase.map((word) => ({ ...word, word: 'la' }))));
    const start = Math.round(phrase[0].beat * secondsPerBeat * sampleRate);
    const end = Math.round((phrase[phrase.length - 1].beat + phrase[phrase.length - 1].beats) * secondsPerBeat * sampleRate) + Math.round(0.2 * sampleRate);
    place(out, audio, start, end, sampleRate);
  }
  await fs.rm(xmlPath, { force: true });
  await fs.rm(wavPath, { force: true });
  return out;
}
