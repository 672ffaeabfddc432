import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { StereoAudio } from '@stemdeck/audio';
import type { SourceFamily, StemRender } from '../family-track';
import type { Rng } from '../random';
import { missingTools, readRender, run, type Need } from '../render';
import { SAMPLE_RATE } from '../track';
import { drawnSinger, fliteSpeaker } from '../wide/family';
import { festivalSpeaker } from '../wide2/family';
import { HYDROGEN_KITS, HYDROGEN_KITS_DIR, playKit } from './kits';
import { csoundDocument, drawPatch } from './orchestra';

/**
 * The third training family: no General MIDI sample set at all. Bass, accompaniment and the voice-patch vocals
 * are synthesized by a Csound orchestra (orchestra.ts: FM, additive, waveguide, subtractive, FOF singing; Debian
 * package csound), the drums are Hydrogen's sampled kits played by our own sampler (kits.ts; Debian package
 * hydrogen-drumkits), neither the development set's, the held-out sets' nor the first two families' sources.
 * The sung vocals are the first family's drawn formant singers; the spoken and rapped ones are the two training
 * families' speakers (flite, festival) saying this family's own lines. Installed by scripts/provision-training.sh.
 */
export const CSOUND_SYNTH = 'csound-synth';

/** Bump whenever the third family's bytes would change. */
export const WIDE3_GENERATOR_VERSION = 1;

/** Original lines for the third family's spoken and rapped vocals (none of the other sets' lines). */
const WIDE3_LINES: readonly string[] = [
  'the neon sign is flickering above the door',
  'we counted every wave that broke upon the pier',
  'hold the line until the thunder rolls away',
  'a hundred voices singing in the underground',
  'the snow is melting on the station roof',
  'turn the dial and find another song',
  'we left our names on every bridge in town',
  'the kettle whistles while the city sleeps',
  'running down the stairs with nothing in our hands',
  'open up the window let the music in',
];

/** One of the Hydrogen kits, drawn (the drum source of this family and, two songs in three, of the fourth). */
export function drawnKit(rng: Rng): string {
  return path.join(HYDROGEN_KITS_DIR, rng.pick(HYDROGEN_KITS));
}

/** Plays a drum stem drawn onto a Hydrogen kit with our sampler; undefined when the stem has another source. */
export function playKitStem(stem: StemRender): StereoAudio | undefined {
  if (!stem.source.startsWith(HYDROGEN_KITS_DIR)) return undefined;
  return playKit(stem.song, stem.source, SAMPLE_RATE, stem.frames, stem.reverb, stem.rng.int(1, 2 ** 30));
}

/** The kits and the speakers (flite, festival) this family and the fourth both play and say with. */
export const KIT_AND_SPEAKER_NEEDS: readonly Need[] = [
  ...HYDROGEN_KITS.map((kit) => ({ file: path.join(HYDROGEN_KITS_DIR, kit, 'drumkit.xml'), pkg: 'hydrogen-drumkits' })),
  { command: 'flite', pkg: 'flite' },
  { command: 'text2wave', pkg: 'festival' },
];

/**
 * What the third to sixth families share (the sixth through the fourth's): GM 52–54 sing the voice-patch vocals,
 * the first family's drawn formant singers the formant ones, and the mixing ranges.
 */
export const LATER_FAMILY_COMMON: Pick<SourceFamily, 'voicePatches' | 'singer' | 'levelRanges' | 'crestRange'> = {
  voicePatches: [
    { program: 52, name: 'choir aahs' },
    { program: 53, name: 'voice oohs' },
    { program: 54, name: 'synth voice' },
  ],
  singer: (_turn, rng) => drawnSinger(rng),
  levelRanges: { vocals: [-6, 4], drums: [-6, 2], bass: [-8, 0], other: [-8, 1] },
  crestRange: [8, 18],
};

async function renderStem(stem: StemRender): Promise<StereoAudio> {
  const kit = playKitStem(stem);
  if (kit) return kit;
  const base = stem.midiPath.replace(/\.mid$/, '');
  const wavPath = path.join(path.dirname(base), `.${path.basename(base)}.render.wav`);
  const document = csoundDocument(stem.song, stem.midiPath, wavPath, SAMPLE_RATE, stem.frames / SAMPLE_RATE, stem.reverb, drawPatch(stem.rng));
  // The .csd stays beside the MIDI file: with it, a stem can be played again exactly.
  await fs.writeFile(`${base}.csd`, document);
  await run('csound', [`${base}.csd`]);
  return readRender('csound', wavPath, SAMPLE_RATE, stem.frames);
}

export const WIDE3_FAMILY: SourceFamily = {
  generatorVersion: WIDE3_GENERATOR_VERSION,
  // A kit drawn per song, so every kit plays every style.
  drumSoundfont: (_kit, rng) => drawnKit(rng),
  melodicSoundfonts: [CSOUND_SYNTH],
  // The voice patches are all sung by the orchestra's FOF singer.
  ...LATER_FAMILY_COMMON,
  speaker: (turn) => (turn % 2 === 0 ? fliteSpeaker(turn) : festivalSpeaker(turn)),
  lines: WIDE3_LINES,
  renderStem,
};

export function missingWide3Tools(): string[] {
  return missingTools([{ command: 'csound', pkg: 'csound' }, ...KIT_AND_SPEAKER_NEEDS]);
}
