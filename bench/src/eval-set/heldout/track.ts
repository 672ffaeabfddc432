import type { StemType } from '@stemdeck/audio';
import type { EvalTrackMeta } from '../meta';
import { generateFamilyTrack, type SourceFamily } from '../family-track';
import { missingTools } from '../render';
import type { RenderSlot } from '../track';
import { HELDOUT_SINGERS } from '../voice/profiles';
import { espeakSpeaker, SPEECH_LINES, SPEECH_VOICES } from '../voice/speech';
import { HELDOUT_GENERATOR_VERSION, type HeldoutTrackSpec } from './catalog';

/** Debian packages timgm6mb-soundfont and musescore-general-soundfont-small (scripts/provision.sh). */
export const TIMGM6MB = '/usr/share/sounds/sf2/TimGM6mb.sf2';
export const MUSESCORE_GENERAL = '/usr/share/sounds/sf3/MuseScore_General_Lite.sf3';
const MELODIC_SOUNDFONTS = [TIMGM6MB, MUSESCORE_GENERAL];
/**
 * Kits 32 (jazz) and 40 (brush) play from TimGM6mb, the only held-out kits it has (its others are
 * the development kits and an orchestra kit with timpani on the hi-hat keys); every other
 * held-out kit plays from MuseScore General.
 */
const TIMGM6MB_KITS = [32, 40];

/**
 * Stem balance ranges (active RMS, dB) — wider than, and centred apart from, the development
 * styles' levels (vocals 0/−1, drums −4…0, bass −4…−1.5, other −4.5…−2.5, each ±1).
 */
const LEVEL_RANGES: Record<StemType, [number, number]> = {
  vocals: [-4, 3],
  drums: [-5, 2],
  bass: [-7, -1],
  other: [-7, 0],
};

/**
 * The held-out sources: two soundfonts the development set never plays, their choir and voice patches,
 * the held-out formant singers, espeak-ng's speakers; crest limits drawn per stem from barely limited to
 * squashed (development: fixed 12–14 dB).
 */
export const HELDOUT_FAMILY: SourceFamily = {
  generatorVersion: HELDOUT_GENERATOR_VERSION,
  drumSoundfont: (kit) => (TIMGM6MB_KITS.includes(kit) ? TIMGM6MB : MUSESCORE_GENERAL),
  melodicSoundfonts: MELODIC_SOUNDFONTS,
  voicePatches: [
    { program: 52, name: 'choir aahs' },
    { program: 53, name: 'voice oohs' },
    { program: 54, name: 'synth voice' },
  ],
  singer: (turn) => HELDOUT_SINGERS[turn % HELDOUT_SINGERS.length],
  speaker: (turn) => espeakSpeaker(SPEECH_VOICES[turn % SPEECH_VOICES.length]),
  lines: SPEECH_LINES,
  levelRanges: LEVEL_RANGES,
  crestRange: [9, 18],
};

export function missingHeldoutTools(): string[] {
  return missingTools([
    { file: TIMGM6MB, pkg: 'timgm6mb-soundfont' },
    { file: MUSESCORE_GENERAL, pkg: 'musescore-general-soundfont-small' },
    { command: 'espeak-ng', pkg: 'espeak-ng' },
  ]);
}

/** Writes one held-out track: the same layout as a development track, from the held-out sources. */
export function generateHeldoutTrack(spec: HeldoutTrackSpec, outDir: string, slot: RenderSlot): Promise<EvalTrackMeta> {
  return generateFamilyTrack(spec, outDir, slot, HELDOUT_FAMILY);
}
