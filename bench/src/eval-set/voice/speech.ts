import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { decodeWav } from '@stemdeck/audio';
import { resample } from '@stemdeck/audio/dist/dsp/resample';
import type { VocalNote } from '../parts/melody';
import { run } from '../render';

/** One espeak-ng speaker: voice (language + variant), speaking rate and pitch, all fixed per track. */
export interface SpeechVoice {
  /** e.g. "en-us+m3": an espeak-ng voice and variant. */
  espeak: string;
  wordsPerMinute: number;
  /** espeak-ng's pitch setting, 0–99. */
  pitch: number;
}

export type Delivery = 'spoken' | 'rapped';

/** Original lines for the spoken and rapped vocals (plain words, no names). */
export const SPEECH_LINES: readonly string[] = [
  'we keep it moving through the night',
  'every little light is calling out my name',
  'count it up and let the rhythm take the lead',
  'nothing in the city ever sleeps tonight',
  'hands up high and never let it go',
  'running down the river to the open sea',
  'tell me what you want and I will play it back',
  'all the people dancing on the corner of the street',
  'turn it up a little louder than before',
  'we were only dreaming of a better day',
  'take a breath and find another way to start',
  'morning comes and we are still awake',
];

/** Speaker settings a track may draw; none of them sings, so the vocal carries no key. */
export const SPEECH_VOICES: readonly SpeechVoice[] = [
  { espeak: 'en-us+m3', wordsPerMinute: 165, pitch: 38 },
  { espeak: 'en-gb+f2', wordsPerMinute: 150, pitch: 55 },
  { espeak: 'en-gb-scotland+m1', wordsPerMinute: 175, pitch: 45 },
  { espeak: 'en-us+f4', wordsPerMinute: 185, pitch: 62 },
  { espeak: 'en-gb-x-rp+m7', wordsPerMinute: 160, pitch: 30 },
];

const SPEECH_RATE = 22050;

/** A speech synthesizer with its settings: says a text as dry mono samples at `sampleRate`. */
export interface Speaker {
  /** Names the voice in the track's meta. */
  name: string;
  detail: string;
  say(text: string, sampleRate: number, wavPath: string): Promise<Float32Array>;
}

/** An espeak-ng speaker (the held-out set's). */
export function espeakSpeaker(voice: SpeechVoice): Speaker {
  return {
    name: voice.espeak,
    detail: `espeak-ng voice ${voice.espeak}, ${voice.wordsPerMinute} wpm, pitch ${voice.pitch}`,
    say: (text, sampleRate, wavPath) => speak(text, voice, sampleRate, wavPath),
  };
}

/**
 * A spoken or rapped vocal as a dry mono track of `frames` samples, timed by the melody's
 * notes (`secondsPerBeat` converts their beats): spoken = one line per phrase, starting on the
 * phrase's first note; rapped = one word per syllable slot, each word starting on a note onset
 * and cut (with a short fade) where the next word starts. `firstLine` picks where in the
 * lyric sheet the track starts. espeak-ng is deterministic, so the result is too.
 */
export async function speakVocal(
  notes: VocalNote[],
  secondsPerBeat: number,
  frames: number,
  sampleRate: number,
  speaker: Speaker,
  delivery: Delivery,
  firstLine: number,
  workDir: string,
  lines: readonly string[] = SPEECH_LINES,
): Promise<Float32Array> {
  const out = new Float32Array(frames);
  const cache = new Map<string, Float32Array>();
  const say = async (text: string) => {
    let audio = cache.get(text);
    if (!audio) {
      audio = await speaker.say(text, sampleRate, path.join(workDir, `.speech-${cache.size}.wav`));
      cache.set(text, audio);
    }
    return audio;
  };
  const phrases = phrasesOf(notes);
  for (let p = 0; p < phrases.length; p++) {
    const phrase = phrases[p];
    const line = lines[(firstLine + p) % lines.length];
    const phraseEnd = Math.round((phrase[phrase.length - 1].beat + phrase[phrase.length - 1].beats) * secondsPerBeat * sampleRate);
    if (delivery === 'spoken') {
      place(out, await say(line), Math.round(phrase[0].beat * secondsPerBeat * sampleRate), phraseEnd, sampleRate);
      continue;
    }
    let slot = 0;
    for (const word of line.split(' ')) {
      if (slot >= phrase.length) break;
      const start = Math.round(phrase[slot].beat * secondsPerBeat * sampleRate);
      slot += syllables(word);
      const stop = slot < phrase.length ? Math.round(phrase[slot].beat * secondsPerBeat * sampleRate) : phraseEnd;
      place(out, await say(word), start, stop, sampleRate);
    }
  }
  return out;
}

/** Notes grouped where the melody breathes (a rest of half a beat or more). */
export function phrasesOf(notes: VocalNote[]): VocalNote[][] {
  const phrases: VocalNote[][] = [];
  notes.forEach((note, i) => {
    const prev = notes[i - 1];
    if (!prev || note.beat - (prev.beat + prev.beats) >= 0.5) phrases.push([]);
    phrases[phrases.length - 1].push(note);
  });
  return phrases;
}

/** Vowel groups, at least one: "dancing" 2, "the" 1, "little" 1 (a final e is dropped first; close enough for timing). */
export function syllables(word: string): number {
  const groups = word.toLowerCase().replace(/e$/, '').match(/[aeiouy]+/g);
  return Math.max(1, groups?.length ?? 1);
}

/** Adds `audio` at `start`, cut at `stop` with a 15 ms fade so the cut doesn't click. */
export function place(out: Float32Array, audio: Float32Array, start: number, stop: number, sampleRate: number): void {
  const end = Math.min(out.length, stop, start + audio.length);
  const fade = Math.round(0.015 * sampleRate);
  const cut = start + audio.length > end;
  for (let i = start; i < end; i++) {
    const fromEnd = end - i;
    out[i] += audio[i - start] * (cut && fromEnd < fade ? fromEnd / fade : 1);
  }
}

async function speak(text: string, voice: SpeechVoice, sampleRate: number, wavPath: string): Promise<Float32Array> {
  await run('espeak-ng', ['-v', voice.espeak, '-s', String(voice.wordsPerMinute), '-p', String(voice.pitch), '-w', wavPath, text]);
  const audio = decodeWav(await fs.readFile(wavPath));
  await fs.rm(wavPath, { force: true });
  if (audio.sampleRate !== SPEECH_RATE) throw new Error(`espeak-ng wrote ${audio.sampleRate} Hz, expected ${SPEECH_RATE}`);
  const trimmed = trimSilence(audio.left);
  return resample(trimmed, SPEECH_RATE, sampleRate);
}

/** Speech synthesizers pad their output with silence; a rapper's word starts on the beat. */
export function trimSilence(x: Float32Array): Float32Array {
  const threshold = 0.01;
  let a = 0;
  while (a < x.length && Math.abs(x[a]) < threshold) a++;
  let b = x.length;
  while (b > a && Math.abs(x[b - 1]) < threshold) b--;
  return x.slice(Math.max(0, a - 32), b);
}
