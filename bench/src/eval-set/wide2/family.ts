import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeWav } from '@stemdeck/audio';
import { resample } from '@stemdeck/audio/dist/dsp/resample';
import type { SourceFamily } from '../family-track';
import { hashSeed, Rng } from '../random';
import { missingTools, run } from '../render';
import { trimSilence, type Speaker } from '../voice/speech';
import { freepatsFullConfig } from './freepats';
import { drawnSinger } from '../wide/family';

/**
 * The second training family's sources, new to the network: neither the development set's (FluidR3), the
 * held-out sets' (TimGM6mb, MuseScore General, espeak-ng) nor the first wide family's (csound GM, OPL3 FM,
 * flite). Debian packages freepats + timidity (GUS patches played by TiMidity++'s own synthesis),
 * avldrums.lv2-soundfont (two multi-sampled acoustic kits) and festival with its festvox voices (installed by
 * scripts/provision-training.sh). The sung vocals are the first wide family's drawn formant singers.
 */
export const FREEPATS_CFG = '/etc/timidity/freepats.cfg';
export const AVL_BLACK_PEARL = '/usr/share/sounds/sf2/Black_Pearl_4_LV2.sf2';
export const AVL_RED_ZEPPELIN = '/usr/share/sounds/sf2/Red_Zeppelin_4_LV2.sf2';

/** Bump whenever the second family's bytes would change. */
export const WIDE2_GENERATOR_VERSION = 1;

/**
 * timidity reads Debian's default configuration (FluidR3, the development soundfont) before the one it is
 * given, so an instrument freepats lacks would sound from FluidR3. The configuration written here names every
 * program of bank 0 and every note of every drum set, each missing one taken from the nearest freepats patch (a
 * program from its own General MIDI family of eight where it has one), so nothing falls through.
 */
export const FREEPATS_FULL_CFG = path.join(os.tmpdir(), `stemdeck-freepats-full-v${WIDE2_GENERATOR_VERSION}.cfg`);

/**
 * Writes FREEPATS_FULL_CFG (idempotent; its content depends only on Debian's freepats.cfg), by a rename, so a
 * timidity of another generator running beside this one never reads half of it.
 */
export async function prepareWide2Family(): Promise<void> {
  const partial = `${FREEPATS_FULL_CFG}.${process.pid}`;
  await fs.writeFile(partial, freepatsFullConfig(readFileSync(FREEPATS_CFG, 'utf8')));
  await fs.rename(partial, FREEPATS_FULL_CFG);
}

/** Original lines for the second family's spoken and rapped vocals (neither the held-out nor the first family's). */
const WIDE2_LINES: readonly string[] = [
  'the radio is playing songs we used to know',
  'walking on the wire above the sleeping town',
  'every window open to the summer rain',
  'we built a tower out of cardboard and a dream',
  'the clock is ticking faster than it should',
  'meet me where the highway meets the sea',
  'silver coins are rolling down the hill',
  'the band is tuning up inside the empty hall',
  'carry all the noise and leave the rest behind',
  'twenty minutes left before the lights go out',
];

/** festival's voices: English, Italian, Finnish, Russian and Czech speakers, all reading the English lines. */
const FESTIVAL_VOICES = ['ked_diphone', 'pc_diphone', 'suo_fi_lj_diphone', 'kal_diphone', 'lp_diphone', 'hy_fi_mv_diphone', 'msu_ru_nsh_clunits', 'czech_dita', 'cmu_us_slt_arctic_hts'] as const;

/**
 * A festival speaker: a voice at a drawn speaking stretch, its output read back a little faster or slower
 * (voice and pitch together, like a tape), fixed per turn.
 */
export function festivalSpeaker(turn: number): Speaker {
  const voice = FESTIVAL_VOICES[turn % FESTIVAL_VOICES.length];
  const draw = new Rng(hashSeed(`stemdeck-wide2-speaker-${turn}`));
  const stretch = Math.round(draw.range(0.8, 1.25) * 100) / 100;
  const tape = Math.round(draw.range(0.88, 1.14) * 100) / 100;
  return {
    name: `festival-${voice}`,
    detail: `festival voice ${voice}, duration x${stretch}, tape x${tape}`,
    say: async (text, sampleRate, wavPath) => {
      const textPath = `${wavPath}.txt`;
      await fs.writeFile(textPath, `${text}\n`);
      const speak = (by: number) => run('text2wave', ['-eval', `(begin (voice_${voice}) (Parameter.set 'Duration_Stretch ${by}))`, textPath, '-o', wavPath]);
      // festival's diphone voices crash on a few words at a few stretches (lp_diphone on "a" at 0.96, not at 0.8
      // or 1): such a word is said unstretched.
      await speak(stretch).catch(() => speak(1));
      const audio = decodeWav(await fs.readFile(wavPath));
      await fs.rm(wavPath, { force: true });
      await fs.rm(textPath, { force: true });
      return resample(trimSilence(audio.left), Math.round(audio.sampleRate * tape), sampleRate);
    },
  };
}

/** The avldrums kits play as their file's one preset (bank 0, program 0) on a melodic channel. */
const AVL_KITS = [AVL_BLACK_PEARL, AVL_RED_ZEPPELIN];
const DRUM_SOURCES = [AVL_BLACK_PEARL, FREEPATS_FULL_CFG, AVL_RED_ZEPPELIN];

export const WIDE2_FAMILY: SourceFamily = {
  generatorVersion: WIDE2_GENERATOR_VERSION,
  // Each groove's kit number picks one of the three kits, so every kit plays several styles.
  drumSoundfont: (kit) => DRUM_SOURCES[kit % DRUM_SOURCES.length],
  presetKits: AVL_KITS,
  melodicSoundfonts: [FREEPATS_FULL_CFG],
  voicePatches: [{ program: 53, name: 'voice oohs' }],
  singer: (_turn, rng) => drawnSinger(rng),
  speaker: festivalSpeaker,
  lines: WIDE2_LINES,
  levelRanges: { vocals: [-6, 4], drums: [-6, 2], bass: [-8, 0], other: [-8, 1] },
  crestRange: [8, 18],
};

export function missingWide2Tools(): string[] {
  return missingTools([
    { file: FREEPATS_CFG, pkg: 'freepats' },
    { command: 'timidity', pkg: 'timidity' },
    ...AVL_KITS.map((file) => ({ file, pkg: 'avldrums.lv2-soundfont' })),
    { command: 'text2wave', pkg: 'festival' },
  ]);
}
