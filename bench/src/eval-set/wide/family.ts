import { promises as fs } from 'node:fs';
import { decodeWav } from '@stemdeck/audio';
import { resample } from '@stemdeck/audio/dist/dsp/resample';
import type { SourceFamily } from '../family-track';
import type { Vowel } from '../parts/melody';
import { hashSeed, Rng } from '../random';
import { missingTools, run } from '../render';
import { FORMANT_BANDWIDTHS, vowelFormants, type FormantSet } from '../voice/formants';
import type { VoiceCharacter } from '../voice/profiles';
import { trimSilence, type Speaker } from '../voice/speech';

/**
 * The wide training family's sources: neither the development set's (FluidR3, the development singer) nor
 * the held-out sets' (TimGM6mb, MuseScore General, the held-out singers, espeak-ng). Debian packages
 * csound-soundfont and opl3-soundfont, flite (installed by `npm run train:separation`).
 */
export const CSOUND_GM = '/usr/share/sounds/sf2/sf_GMbank.sf2';
export const OPL3_FM = '/usr/share/sounds/sf2/OPL-3_FM_128M.sf2';
const MELODIC_SOUNDFONTS = [CSOUND_GM, OPL3_FM, CSOUND_GM];

/** Bump whenever the wide family's bytes would change. */
export const WIDE_GENERATOR_VERSION = 1;

/** Original lines for the wide family's spoken and rapped vocals (not the held-out lines). */
const WIDE_LINES: readonly string[] = [
  'the signal fades and then it comes around again',
  'we painted every wall a brighter shade of blue',
  'keep the engine running till the morning train',
  'one more step and we are standing on the roof',
  'paper planes are flying over empty streets',
  'she said the summer never really ends',
  'lock the door and throw the key into the lake',
  'stars are falling slowly on the parking lot',
  'nobody knows the way the river bends',
  'give me a minute and I will find the words',
];

/** flite's voices (16 kHz), each spoken at a few rates and pitches. */
const FLITE_VOICES = ['kal16', 'awb', 'rms', 'slt'] as const;

export function fliteSpeaker(turn: number): Speaker {
  const voice = FLITE_VOICES[turn % FLITE_VOICES.length];
  const draw = new Rng(hashSeed(`stemdeck-wide-speaker-${turn}`));
  const stretch = Math.round(draw.range(0.75, 1.2) * 100) / 100;
  const pitchShift = Math.round(draw.range(-25, 35));
  const base = voice === 'slt' ? 170 : 105;
  const f0 = base + pitchShift;
  return {
    name: `flite-${voice}`,
    detail: `flite voice ${voice}, duration x${stretch}, f0 ${f0} Hz`,
    say: async (text, sampleRate, wavPath) => {
      await run('flite', ['-voice', voice, '--setf', `duration_stretch=${stretch}`, '--setf', `int_f0_target_mean=${f0}`, '-t', text, '-o', wavPath]);
      const audio = decodeWav(await fs.readFile(wavPath));
      await fs.rm(wavPath, { force: true });
      return resample(trimSilence(audio.left), audio.sampleRate, sampleRate);
    },
  };
}

/**
 * A singer drawn for the track: the development formant tables of a voice type scaled as a longer or shorter
 * vocal tract, with bandwidths, vibrato, brightness, breathiness and register drawn from wide ranges.
 */
export function drawnSinger(rng: Rng): VoiceCharacter {
  const rangeCentre = rng.int(46, 67);
  const type = rangeCentre < 57 ? 'male' : 'female';
  const tract = rng.range(0.86, 1.16);
  const vowels = {} as Record<Vowel, FormantSet>;
  for (const vowel of ['a', 'e', 'i', 'o', 'u'] as Vowel[]) {
    const [f1, f2, f3, f4, f5] = vowelFormants(type, vowel);
    vowels[vowel] = [f1 * tract * rng.range(0.94, 1.06), f2 * tract * rng.range(0.94, 1.06), f3 * tract, f4 * rng.range(0.95, 1.08), f5 * rng.range(0.95, 1.08)];
  }
  const widen = rng.range(0.7, 1.6);
  const vibrato = rng.range(5, 80);
  const rate = rng.range(4.2, 7);
  const closing = rng.range(0.1, 0.3);
  const breath = rng.range(0.01, 0.18);
  return {
    name: `drawn-${type}-${Math.round(tract * 100)}`,
    vowels,
    bandwidths: FORMANT_BANDWIDTHS.map((b) => b * widen) as FormantSet,
    murmurScale: tract,
    vibratoCents: [vibrato * 0.8, vibrato * 1.2],
    vibratoHz: [rate - 0.3, rate + 0.3],
    vibratoOnsetSeconds: rng.range(0.05, 0.35),
    closing: [closing, closing + 0.04],
    breathiness: [breath, breath * 1.4],
    jitter: rng.range(0.002, 0.01),
    shimmer: rng.range(0.03, 0.1),
    driftCents: rng.range(4, 20),
    scoopSemitones: rng.range(0.1, 1),
    presenceGain: rng.range(0.6, 2.4),
    highBranchGain: rng.range(0.15, 0.5),
    rangeCentre,
  };
}

export const WIDE_FAMILY: SourceFamily = {
  generatorVersion: WIDE_GENERATOR_VERSION,
  // Every kit from the csound bank; the OPL3 bank's FM drums once in a while would be too rare to learn from.
  drumSoundfont: () => CSOUND_GM,
  melodicSoundfonts: MELODIC_SOUNDFONTS,
  voicePatches: [
    { program: 52, name: 'choir aahs' },
    { program: 53, name: 'voice oohs' },
    { program: 54, name: 'synth voice' },
    { program: 85, name: 'lead voice' },
  ],
  singer: (_turn, rng) => drawnSinger(rng),
  speaker: fliteSpeaker,
  lines: WIDE_LINES,
  levelRanges: { vocals: [-6, 4], drums: [-6, 2], bass: [-8, 0], other: [-8, 1] },
  crestRange: [8, 18],
};

export function missingWideTools(): string[] {
  return missingTools([
    { file: CSOUND_GM, pkg: 'csound-soundfont' },
    { file: OPL3_FM, pkg: 'opl3-soundfont' },
    { command: 'flite', pkg: 'flite' },
  ]);
}
