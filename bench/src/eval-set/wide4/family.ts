import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeWav, type StereoAudio } from '@stemdeck/audio';
import { resample } from '@stemdeck/audio/dist/dsp/resample';
import type { SourceFamily, StemRender } from '../family-track';
import { REPO_ROOT } from '../meta';
import { fitLength, missingTools, run, type FluidReverb } from '../render';
import { SAMPLE_RATE } from '../track';
import { fliteSpeaker } from '../wide/family';
import { festivalSpeaker } from '../wide2/family';
import { drawnKit, KIT_AND_SPEAKER_NEEDS, LATER_FAMILY_COMMON, playKitStem } from '../wide3/family';

/**
 * The fourth training family: Sonivox EAS, the General MIDI wavetable synthesizer Android shipped (Debian
 * libsonivox3), a sample set none of the other sets use. It plays bass, accompaniment and the voice-patch vocals
 * (choir, oohs, synth voice), and the drums one song in three; Hydrogen's kits (the third family's sampler) the
 * other two, for Sonivox renders at 22 050 Hz and its cymbals stop at 11 kHz. The sung vocals are the first
 * family's drawn formant singers; the spoken and rapped ones the flite and festival speakers with this family's
 * own lines. Installed by scripts/provision-training.sh; the renderer is our small C program
 * (sonivox-render.c), built against libsonivox-dev when a set is generated.
 */
export const SONIVOX = 'sonivox-eas';

/** Bump whenever the fourth family's bytes would change. */
export const WIDE4_GENERATOR_VERSION = 1;

const RENDERER_SOURCE = path.join(REPO_ROOT, 'bench', 'src', 'eval-set', 'wide4', 'sonivox-render.c');

/** Builds the renderer (by a rename, so a generator running beside this one never runs half of it) once per source text. */
export async function prepareWide4Family(): Promise<void> {
  const built = renderer();
  if (existsSync(built)) return;
  const partial = `${built}.${process.pid}`;
  await run('gcc', ['-O2', '-o', partial, RENDERER_SOURCE, '-I/usr/include/sonivox', '-lsonivox']);
  await fs.rename(partial, built);
}

let rendererPath: string | undefined;

/** Where the renderer built from this source text lives (a changed source builds a new one). */
function renderer(): string {
  rendererPath ??= path.join(os.tmpdir(), `stemdeck-sonivox-render-${createHash('sha256').update(readFileSync(RENDERER_SOURCE)).digest('hex').slice(0, 16)}`);
  return rendererPath;
}

/** Original lines for the fourth family's spoken and rapped vocals (none of the other sets' lines). */
const WIDE4_LINES: readonly string[] = [
  'the pinball lights are spinning in the dark',
  'we drew a map on the back of a ticket',
  'all the bells are ringing down the avenue',
  'put your coat on there is weather coming in',
  'the tape is hissing but the song survives',
  'following the tram lines home again',
  'a lantern swinging on the fishing boat',
  'the crowd is waiting for the final chord',
  'we never learned the words but still we sing',
  'the elevator hums between the floors',
];

/** EAS's reverb presets: large hall, hall, chamber, room; the stem's room size picks one, its level the wet mix. */
export function easReverb(reverb: FluidReverb): { preset: number; wet: number } {
  const preset = reverb.roomSize >= 0.8 ? 0 : reverb.roomSize >= 0.7 ? 1 : reverb.roomSize >= 0.6 ? 2 : 3;
  return { preset, wet: Math.round(reverb.level * 0.4 * 32767) };
}

async function renderStem(stem: StemRender): Promise<StereoAudio> {
  const kit = playKitStem(stem);
  if (kit) return kit;
  const base = stem.midiPath.replace(/\.mid$/, '');
  const wavPath = path.join(path.dirname(base), `.${path.basename(base)}.render.wav`);
  const { preset, wet } = easReverb(stem.reverb);
  const chorus = stem.rng.chance(0.3) ? 1 : 0;
  await run(renderer(), [stem.midiPath, wavPath, String(preset), String(wet), String(chorus)]);
  const audio = decodeWav(await fs.readFile(wavPath));
  await fs.rm(wavPath, { force: true });
  const up = (ch: Float32Array) => resample(ch, audio.sampleRate, SAMPLE_RATE);
  return fitLength({ sampleRate: SAMPLE_RATE, left: up(audio.left), right: up(audio.right) }, stem.frames);
}

export const WIDE4_FAMILY: SourceFamily = {
  generatorVersion: WIDE4_GENERATOR_VERSION,
  drumSoundfont: (_kit, rng) => (rng.chance(1 / 3) ? SONIVOX : drawnKit(rng)),
  melodicSoundfonts: [SONIVOX],
  ...LATER_FAMILY_COMMON,
  speaker: (turn) => (turn % 2 === 0 ? festivalSpeaker(turn) : fliteSpeaker(turn)),
  lines: WIDE4_LINES,
  renderStem,
};

export function missingWide4Tools(): string[] {
  return missingTools([{ file: '/usr/include/sonivox/eas.h', pkg: 'libsonivox-dev' }, { command: 'gcc', pkg: 'gcc' }, ...KIT_AND_SPEAKER_NEEDS]);
}
