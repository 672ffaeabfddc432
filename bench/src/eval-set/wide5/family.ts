import * as path from 'node:path';
import type { StereoAudio } from '@stemdeck/audio';
import type { SourceFamily, StemRender } from '../family-track';
import type { Rng } from '../random';
import { missingTools } from '../render';
import type { DrumVoice } from '../styles';
import { SAMPLE_RATE } from '../track';
import { fliteSpeaker } from '../wide/family';
import { festivalSpeaker } from '../wide2/family';
import { KIT_AND_SPEAKER_NEEDS, LATER_FAMILY_COMMON } from '../wide3/family';
import { playKitInstruments, type KitInstrument } from '../wide3/kits';
import { drawVoice, playPitched, type ChannelVoice } from './sampler';

/**
 * The fifth training family: single recordings from two sample libraries no other set uses, LMMS's (Debian
 * lmms-common) and Sonic Pi's (sonic-pi-samples): pianos, organs, guitars, strings, brass, flute, pads, synth
 * and slap basses, choirs, and their one-shot drums. Our pitched sampler (sampler.ts) plays the melodic parts
 * and the voice-patch vocals from one recording per channel; the drum part plays a kit assembled per song from
 * both libraries' one-shots by the third family's kit sampler. The sung vocals are the first family's drawn
 * formant singers; the spoken and rapped ones the flite and festival speakers with this family's own lines.
 */
export const SAMPLE_LIBRARIES = 'lmms+sonic-pi';

/** Bump whenever the fifth family's bytes would change. */
export const WIDE5_GENERATOR_VERSION = 1;

const LMMS = '/usr/share/lmms/samples';
const SONIC_PI = '/usr/share/sonic-pi/samples';
// Left out: LMMS's harpsichord01 and kick04, Vorbis inside a WAV header, which ffmpeg does not decode.
const lmms = (dir: string, ...names: string[]) => names.map((n) => path.join(LMMS, dir, `${n}.ogg`));
const sonicPi = (...names: string[]) => names.map((n) => path.join(SONIC_PI, `${n}.flac`));
const numbered = (stem: string, count: number) => Array.from({ length: count }, (_, i) => `${stem}${String(i + 1).padStart(2, '0')}`);

/** One-shots per drum voice, from both libraries; a song's kit draws one of each. */
export const DRUM_POOLS: Record<DrumVoice, readonly string[]> = {
  kick: [
    ...lmms('drums', ...numbered('bassdrum', 4), 'bassdrum_acoustic01', 'bassdrum_acoustic02', ...numbered('kick', 3), 'kick_hard01', 'kick_hiphop01', 'kick_long01', 'kick_soft01', 'kick_soft02'),
    ...sonicPi('bd_808', 'bd_ada', 'bd_boom', 'bd_fat', 'bd_haus', 'bd_klub', 'bd_pure', 'bd_tek', 'bd_zome', 'bd_zum', 'drum_bass_hard', 'drum_bass_soft', 'drum_heavy_kick', 'elec_soft_kick', 'elec_hollow_kick'),
  ],
  snare: [
    ...lmms('drums', ...numbered('snare', 7), 'snare_acoustic01', 'snare_electro01', 'snare_hiphop01', 'snare_hiphop02', 'snare_muffled01', 'snare_muffled02', 'snare_short01', 'snare_harsh01'),
    ...sonicPi('sn_dolf', 'sn_dub', 'sn_generic', 'sn_zome', 'drum_snare_hard', 'drum_snare_soft', 'elec_snare', 'elec_hi_snare', 'elec_lo_snare', 'elec_mid_snare', 'elec_filt_snare'),
  ],
  sideStick: [...lmms('drums', 'sidestick01', 'rim01', 'snare_rim01', 'nasty_rim01', 'wood01'), ...sonicPi('elec_wood')],
  clap: [...lmms('drums', ...numbered('clap', 4)), ...sonicPi('perc_snap', 'perc_snap2')],
  closedHat: [...lmms('drums', ...numbered('hihat_closed', 5)), ...sonicPi('drum_cymbal_closed')],
  pedalHat: [...lmms('drums', 'hihat_foot_pedal01'), ...sonicPi('drum_cymbal_pedal')],
  openHat: [...lmms('drums', ...numbered('hihat_opened', 3)), ...sonicPi('drum_cymbal_open')],
  ride: [...lmms('drums', 'ride01', 'ride02'), ...sonicPi('drum_cymbal_soft')],
  crash: [...lmms('drums', 'crash01', 'crash02'), ...sonicPi('drum_cymbal_hard', 'drum_splash_hard', 'elec_cymbal')],
  crash2: [...lmms('drums', 'crash01', 'crash02'), ...sonicPi('drum_splash_soft', 'drum_splash_hard')],
  tambourine: [...lmms('drums', ...numbered('shaker', 3)), ...sonicPi('elec_triangle')],
  shaker: lmms('drums', ...numbered('shaker', 3)),
  highTom: [...lmms('drums', 'tom_hi01', 'tom01'), ...sonicPi('drum_tom_hi_hard', 'drum_tom_hi_soft')],
  midTom: [...lmms('drums', 'tom_mid01', 'tom02', 'tom03'), ...sonicPi('drum_tom_mid_hard', 'drum_tom_mid_soft', 'elec_fuzz_tom')],
  lowTom: [...lmms('drums', 'tom_low01', 'tom04'), ...sonicPi('drum_tom_lo_hard', 'drum_tom_lo_soft')],
  floorTom: [...lmms('drums', 'tom_low01', 'tom05'), ...sonicPi('drum_tom_lo_hard')],
};

/** Recordings for a General MIDI family of programs; `sustained` ones get longer releases. */
interface PitchedPool {
  files: readonly string[];
  sustained: boolean;
}

const PIANOS: PitchedPool = { files: [...lmms('instruments', 'piano01', 'piano02'), ...sonicPi('ambi_piano')], sustained: false };
const BELLS: PitchedPool = { files: [...lmms('misc', 'dong01', 'dong02', 'dong03'), ...sonicPi('elec_chime', 'perc_bell', 'perc_bell2', 'elec_bell')], sustained: false };
const ORGANS: PitchedPool = { files: lmms('instruments', ...numbered('church_organ', 4), 'e_organ01'), sustained: true };
const GUITARS: PitchedPool = {
  files: [...lmms('instruments', 'steel_guitar01', 'steel_guitar_slight_distorted01', 'steel_guitar_medium_distorted01', 'steel_guitar_heavy_distorted01'), ...sonicPi('guit_harmonics')],
  sustained: false,
};
const BASSES: PitchedPool = {
  files: [
    ...lmms('basses', 'bass01', 'bass_acid01', 'bass_acid02', 'bass_hard01', 'bass_hard02', 'bass_punch01', 'horror_bass01', 'matrix1000_pluck01'),
    ...lmms('basses', ...numbered('rave_bass', 4), 'synth_acid01', 'synth_acid02', 'techno_synth01'),
    ...lmms('instruments', 'bassslap01', 'bassslap02'),
    ...sonicPi('bass_dnb_f', 'bass_hard_c', 'bass_hit_c', 'bass_thick_c', 'bass_trance_c', 'bass_voxy_c', 'bass_woodsy_c', 'glitch_bass_g'),
  ],
  sustained: false,
};
const STRINGS: PitchedPool = { files: [...lmms('instruments', 'cello01', 'violin_fingered01', 'violin_pizzicato01'), ...lmms('stringsnpads', 'strings01', 'orion_string01')], sustained: true };
const ENSEMBLES: PitchedPool = { files: lmms('stringsnpads', 'strings01', 'heaven_strings01', 'orion_string01', ...numbered('space_strings', 3)), sustained: true };
const BRASS: PitchedPool = { files: [...lmms('instruments', 'trumpet01'), ...lmms('latin', 'latin_brass01')], sustained: true };
const WINDS: PitchedPool = { files: lmms('instruments', 'flute01', 'trumpet01'), sustained: true };
const LEADS: PitchedPool = { files: [...lmms('basses', 'matrix1000_pluck01', 'synth_acid02', 'techno_synth01'), ...lmms('instruments', 'e_organ01')], sustained: false };
const PADS: PitchedPool = {
  files: [...lmms('stringsnpads', 'juno_pad01', 'korg_poly6_drone01', 'nord_ambient01', 'heaven_strings01', 'space_strings01'), ...sonicPi('ambi_drone', 'ambi_glass_hum')],
  sustained: true,
};
const EFFECTS: PitchedPool = { files: [...lmms('stringsnpads', 'bell_choir01', 'bell_choir02'), ...sonicPi('ambi_glass_rub')], sustained: true };
/** The voice-patch vocals (GM 52–54): choirs. */
export const CHOIRS: PitchedPool = { files: [...lmms('stringsnpads', 'chorus01', 'chorus02', 'rave_choir01'), ...sonicPi('ambi_choir')], sustained: true };

/** The pool for each group of eight General MIDI programs. */
const POOLS: readonly PitchedPool[] = [PIANOS, BELLS, ORGANS, GUITARS, BASSES, STRINGS, ENSEMBLES, BRASS, WINDS, WINDS, LEADS, PADS, EFFECTS, GUITARS, BELLS, EFFECTS];

export function poolFor(program: number): PitchedPool {
  return program >= 52 && program <= 54 ? CHOIRS : POOLS[Math.floor(program / 8)];
}

/** Every file the family plays, for the missing-tools check. */
export function wide5Files(): string[] {
  return [...new Set([...Object.values(DRUM_POOLS).flat(), ...POOLS.flatMap((p) => p.files), ...CHOIRS.files])];
}

/** Original lines for the fifth family's spoken and rapped vocals (none of the other sets' lines). */
const WIDE5_LINES: readonly string[] = [
  'the radio is playing from the other room',
  'we painted every window on the street',
  'carry me across the river in the morning',
  'the bus is late again and no one minds',
  'a paper boat is sailing down the drain',
  'listen to the engine of the night',
  'we traded all our records for a guitar',
  'the lighthouse blinks a message to the sea',
  'dancing on the rooftop in the rain',
  'somebody left the piano by the door',
];

/** A kit of one-shots drawn per song: one recording per voice, each panned a little off the kit's centre. */
export function drawnSampleKit(rng: Rng): { kit: KitInstrument[]; voices: Partial<Record<DrumVoice, number>> } {
  const kit: KitInstrument[] = [];
  const voices: Partial<Record<DrumVoice, number>> = {};
  for (const [voice, pool] of Object.entries(DRUM_POOLS) as [DrumVoice, readonly string[]][]) {
    const file = rng.pick(pool);
    const spread = rng.range(-0.3, 0.3);
    voices[voice] = kit.length;
    kit.push({ name: voice, volume: rng.range(0.7, 1), panL: Math.min(1, 1 - spread), panR: Math.min(1, 1 + spread), layers: [{ file, min: 0, max: 1, gain: 1 }] });
  }
  return { kit, voices };
}

async function renderStem(stem: StemRender): Promise<StereoAudio> {
  if (stem.name === 'drums') {
    const { kit, voices } = drawnSampleKit(stem.rng.fork('kit'));
    return playKitInstruments(stem.song, kit, voices, stem.rng, SAMPLE_RATE, stem.frames, stem.reverb);
  }
  const voices = new Map<number, ChannelVoice>();
  for (const channel of stem.song.channels) {
    const pool = poolFor(channel.program);
    voices.set(channel.channel, drawVoice(pool.files, pool.sustained, SAMPLE_RATE, stem.rng.fork(`channel-${channel.channel}`)));
  }
  return playPitched(stem.song, voices, SAMPLE_RATE, stem.frames, stem.reverb);
}

export const WIDE5_FAMILY: SourceFamily = {
  generatorVersion: WIDE5_GENERATOR_VERSION,
  drumSoundfont: () => SAMPLE_LIBRARIES,
  melodicSoundfonts: [SAMPLE_LIBRARIES],
  ...LATER_FAMILY_COMMON,
  speaker: (turn) => (turn % 2 === 0 ? fliteSpeaker(turn) : festivalSpeaker(turn)),
  lines: WIDE5_LINES,
  renderStem,
};

export function missingWide5Tools(): string[] {
  const needs = wide5Files().map((file) => ({ file, pkg: file.startsWith(LMMS) ? 'lmms-common' : 'sonic-pi-samples' }));
  return missingTools([...needs, { command: 'ffmpeg', pkg: 'ffmpeg' }, ...KIT_AND_SPEAKER_NEEDS.filter((n) => !('file' in n))]);
}
