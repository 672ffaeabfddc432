import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { encodeWav, STEM_TYPES, type StemType, type StereoAudio } from '@stemdeck/audio';
import type { TrackSpec } from './catalog';
import { META_FILE, MIXTURE_FILE, stemFile, type EvalTrackMeta, type HeldoutSources } from './meta';
import { fadeOut, limitCrest, mixdown, type StemSetAudio } from './mixdown';
import { writeAccompaniment } from './parts/accompaniment';
import { writeBass } from './parts/bass';
import { writeDrums } from './parts/drums';
import { writeMelody, type VocalNote } from './parts/melody';
import { Rng } from './random';
import { renderMidiStem, type FluidReverb } from './render';
import { microsPerQuarter, writeMidiFile, type MidiSong } from './smf';
import { planSong, type SongPlan } from './song';
import { melodyAsMidi, SAMPLE_RATE, trackMeta, type RenderSlot } from './track';
import type { VoiceCharacter } from './voice/profiles';
import { placeVocal, type ReverbOptions } from './voice/reverb';
import { sing } from './voice/singer';
import { speakVocal, type Speaker } from './voice/speech';
import { singWords, sungPhrases, type SingingVoice } from './voice/sung';

/**
 * What sings: a General MIDI voice patch from the family's soundfonts, the formant synthesizer with one of
 * the family's singers, its speech synthesizer speaking or rapping, or (a family with a singing voice) its
 * words sung to the melody.
 */
export type VocalKind = 'soundfont' | 'formant' | 'spoken' | 'rapped' | 'sung';

/** A track of a source family (the held-out sets, the wide training set). */
export interface FamilyTrackSpec extends TrackSpec {
  vocal: VocalKind;
  /**
   * n-th track with this kind of vocal (spoken and rapped counted together): the singers,
   * voice patches and speakers are taken in turn, so every one of them is heard.
   */
  vocalTurn: number;
}

/** Where a family's sounds come from and how its songs are mixed. */
export interface SourceFamily {
  /** Bump whenever the family's bytes would change. */
  generatorVersion: number;
  /** The drum part's source for the groove's kit number (`rng` is the track's own, for a family that draws it). */
  drumSoundfont(kit: number, rng: Rng): string;
  /**
   * Drum sources that hold one kit as their only preset (bank 0, program 0) instead of bank-128 kits on
   * channel 10: the drum part is moved to the first channel to play them.
   */
  presetKits?: readonly string[];
  melodicSoundfonts: readonly string[];
  /** General MIDI voice patches that sing the 'soundfont' vocals. */
  voicePatches: readonly { program: number; name: string }[];
  /** The singer of the `turn`-th formant vocal (`rng` is the track's own, for a family that draws its singers). */
  singer(turn: number, rng: Rng): VoiceCharacter;
  speaker(turn: number): Speaker;
  /** The voice of the `turn`-th 'sung' vocal; only a family whose catalog has that kind needs one. */
  singingVoice?(turn: number): SingingVoice;
  /** Lines the spoken and rapped vocals say (and the sung ones sing). */
  lines: readonly string[];
  /** Stem balance ranges (active RMS, dB) and the crest limit range (dB), drawn per stem. */
  levelRanges: Record<StemType, [number, number]>;
  crestRange: [number, number];
  /** Plays a stem's part itself (the family's own synthesizer or sampler); without it fluidsynth or timidity do. */
  renderStem?(stem: StemRender): Promise<StereoAudio>;
}

/** One stem's part to play: its MIDI (the song and the file written from it) and the source drawn for it. */
export interface StemRender {
  name: string;
  song: MidiSong;
  midiPath: string;
  source: string;
  reverb: FluidReverb;
  frames: number;
  /** The stem's own random stream (drawn timbres, sample layers). */
  rng: Rng;
}

const PEAK_DBFS = -1;

/**
 * Writes one track of a source family: the same song-writing as the development set, its parts re-placed
 * (pans, sends, reverb, levels, crest drawn from the family's ranges) and played by the family's sounds.
 */
export async function generateFamilyTrack(spec: FamilyTrackSpec, outDir: string, slot: RenderSlot, family: SourceFamily): Promise<EvalTrackMeta> {
  const dir = path.join(outDir, spec.id);
  const midiDir = path.join(dir, 'midi');
  await fs.mkdir(midiDir, { recursive: true });
  const rng = new Rng(spec.seed);
  const plan = planSong(spec, rng.fork('plan'));
  const tempo = microsPerQuarter(spec.bpm);
  const frames = Math.round(spec.durationSeconds * SAMPLE_RATE);
  const mixRng = rng.fork('mixing');

  // Parts as in the development set, then re-placed: other kits' soundfonts, other pans and sends.
  const drums = writeDrums(plan, rng.fork('drums'), tempo);
  const kit = drums.channels[0].program;
  Object.assign(drums.channels[0], { pan: 64 + mixRng.int(-12, 12), reverbSend: mixRng.int(35, 70) });
  const bass = writeBass(plan, rng.fork('bass'), tempo);
  Object.assign(bass.channels[0], { pan: 64 + (mixRng.chance(0.5) ? 1 : -1) * mixRng.int(4, 16), reverbSend: mixRng.int(8, 30) });
  const accompaniment = writeAccompaniment(plan, rng.fork('other'), tempo);
  // Development pans: ±20–46 for the first two slots, near centre for the third. Here: one hard
  // to a side, one near the centre where the vocal sits, the third anywhere.
  const side = mixRng.chance(0.5) ? 1 : -1;
  const pans = [64 + side * mixRng.int(44, 63), 64 + mixRng.int(-16, 16), mixRng.int(0, 127)];
  accompaniment.instruments.forEach((inst, slot) => {
    inst.pan = Math.min(127, pans[slot]);
    Object.assign(accompaniment.song.channels[slot], { pan: inst.pan, reverbSend: mixRng.int(40, 85) });
  });

  const soundfonts: HeldoutSources['soundfonts'] = {
    drums: family.drumSoundfont(kit, rng.fork('kit')),
    bass: mixRng.pick(family.melodicSoundfonts),
    other: mixRng.pick(family.melodicSoundfonts),
  };
  const reverb: FluidReverb = {
    roomSize: round2(mixRng.range(0.55, 0.9)),
    damping: round2(mixRng.range(0.05, 0.3)),
    width: round2(mixRng.chance(0.5) ? mixRng.range(0.2, 0.5) : mixRng.range(0.9, 1)),
    level: round2(mixRng.range(0.7, 0.95)),
  };
  const vocalRoom = {
    wet: round2(mixRng.range(0.15, 0.9)),
    roomSize: round2(mixRng.range(0.3, 0.9)),
    damping: round2(mixRng.range(0.15, 0.75)),
    preDelaySeconds: round2(mixRng.range(0, 0.06)),
    pan: round2(mixRng.range(-0.2, 0.2)),
  };

  const render = (name: string, song: MidiSong, soundfont: string) =>
    slot(async () => {
      const midiPath = path.join(midiDir, `${name}.mid`);
      await fs.writeFile(midiPath, writeMidiFile(song));
      if (family.renderStem) return family.renderStem({ name, song, midiPath, source: soundfont, reverb, frames, rng: rng.fork(`render-${name}`) });
      return renderMidiStem(midiPath, path.join(dir, `.${name}.render.wav`), SAMPLE_RATE, frames, { soundfont, reverb });
    });
  const drumSong = family.presetKits?.includes(soundfonts.drums) ? onPresetKit(drums) : drums;
  const rendered = Promise.all([
    render('drums', drumSong, soundfonts.drums),
    render('bass', bass, soundfonts.bass),
    render('other', accompaniment.song, soundfonts.other),
  ]);

  const turn = spec.vocalTurn;
  let vocal: { audio: StereoAudio; detail: string; voice: string };
  if (spec.vocal === 'formant') {
    const singer = family.singer(turn, rng.fork('singer'));
    const melody = writeMelody(plan, rng.fork('melody'), singer.rangeCentre);
    await fs.writeFile(path.join(midiDir, 'vocals.mid'), writeMidiFile(melodyAsMidi(melody.notes, plan, tempo)));
    const dry = sing(toSeconds(melody.notes, plan), { sampleRate: SAMPLE_RATE, frames, voice: melody.voice, rng: rng.fork('voice'), character: singer });
    vocal = { audio: room(dry, vocalRoom), detail: `formant singer "${singer.name}"`, voice: singer.name };
  } else if (spec.vocal === 'soundfont') {
    const patch = family.voicePatches[turn % family.voicePatches.length];
    soundfonts.vocals = family.melodicSoundfonts[turn % family.melodicSoundfonts.length];
    const melody = writeMelody(plan, rng.fork('melody'));
    const song = melodyAsMidi(melody.notes, plan, tempo, { program: patch.program, pan: 64 + Math.round(vocalRoom.pan * 63), volume: 110, reverbSend: Math.round(vocalRoom.wet * 100) });
    const audio = await render('vocals', song, soundfonts.vocals);
    vocal = { audio, detail: `GM ${patch.program} ${patch.name} from ${path.basename(soundfonts.vocals)}`, voice: patch.name };
  } else if (spec.vocal === 'sung') {
    if (!family.singingVoice) throw new Error(`${spec.id}: this family has no singing voice`);
    const voice = family.singingVoice(turn);
    const melody = writeMelody(plan, rng.fork('melody'), voice.rangeCentre);
    const phrases = sungPhrases(melody.notes, family.lines, rng.fork('lyrics').int(0, family.lines.length - 1));
    // The reference is what is sung: one note per word.
    await fs.writeFile(path.join(midiDir, 'vocals.mid'), writeMidiFile(melodyAsMidi(phrases.flat(), plan, tempo)));
    const dry = await slot(() => singWords(phrases, plan.secondsPerBeat, frames, SAMPLE_RATE, voice, dir));
    vocal = { audio: room(dry, vocalRoom), detail: `festival singing: voice ${voice.festival}`, voice: `festival-sung-${voice.festival}` };
  } else {
    const speaker = family.speaker(turn);
    const firstLine = rng.fork('lyrics').int(0, family.lines.length - 1);
    const melody = writeMelody(plan, rng.fork('melody'));
    // The melody is not heard; its notes time the words (and stay as the rhythm reference).
    await fs.writeFile(path.join(midiDir, 'vocals.mid'), writeMidiFile(melodyAsMidi(melody.notes, plan, tempo)));
    const dry = await slot(() => speakVocal(melody.notes, plan.secondsPerBeat, frames, SAMPLE_RATE, speaker, spec.vocal as 'spoken' | 'rapped', firstLine, dir, family.lines));
    const detail = speaker.detail.replace(/^(\S+) voice/, `$1 ${spec.vocal}: voice`);
    vocal = { audio: room(dry, vocalRoom), detail, voice: speaker.name };
  }
  const [drumAudio, bassAudio, otherAudio] = await rendered;

  const raw: StemSetAudio = { vocals: vocal.audio, drums: drumAudio, bass: bassAudio, other: otherAudio };
  const levelsDb = {} as Record<StemType, number>;
  const crestDb = {} as Record<StemType, number>;
  for (const stem of STEM_TYPES) {
    crestDb[stem] = round2(mixRng.range(family.crestRange[0], family.crestRange[1]));
    levelsDb[stem] = round2(mixRng.range(family.levelRanges[stem][0], family.levelRanges[stem][1]));
    limitCrest(raw[stem], crestDb[stem]);
    fadeOut(raw[stem], 0.5);
  }
  const mix = mixdown(raw, levelsDb, PEAK_DBFS);

  await fs.writeFile(path.join(dir, MIXTURE_FILE), encodeWav(mix.mixture, 32));
  for (const stem of STEM_TYPES) await fs.writeFile(path.join(dir, stemFile(stem)), encodeWav(mix.stems[stem], 32));

  const meta: EvalTrackMeta = {
    ...trackMeta(spec, plan, family.generatorVersion, mix.peakDbfs, {
      voice: vocal.voice,
      drumKit: kit,
      bassProgram: bass.channels[0].program,
      other: accompaniment.instruments.map(({ program, name, role, pan }) => ({ program, name, role, pan })),
    }),
    sources: {
      soundfonts: mapValues(soundfonts, (f) => path.basename(f)),
      vocal: { kind: spec.vocal, detail: vocal.detail },
      reverb,
      vocalRoom,
      levelsDb,
      crestDb,
    },
  };
  await fs.writeFile(path.join(dir, META_FILE), JSON.stringify(meta, null, 2) + '\n');
  return meta;
}

/** The drum part on channel 1 with program 0 of bank 0, for a kit that is its file's one preset. */
function onPresetKit(song: MidiSong): MidiSong {
  const [drums] = song.channels;
  return {
    ...song,
    channels: [{ ...drums, channel: 0, program: 0, bank: 0 }],
    notes: song.notes.map((n) => ({ ...n, channel: 0 })),
    controls: song.controls?.map((c) => ({ ...c, channel: 0 })),
  };
}

function toSeconds(notes: VocalNote[], plan: SongPlan) {
  const spb = plan.secondsPerBeat;
  return notes.map((n) => ({ ...n, start: n.beat * spb, end: (n.beat + n.beats) * spb }));
}

/** The vocal's own room (the development set's placeVocal), then a constant-power pan. */
function room(dry: Float32Array, o: ReverbOptions & { pan: number }): StereoAudio {
  const placed = placeVocal(dry, SAMPLE_RATE, o);
  const angle = ((o.pan + 1) * Math.PI) / 4;
  const gl = Math.SQRT2 * Math.cos(angle);
  const gr = Math.SQRT2 * Math.sin(angle);
  for (let i = 0; i < placed.left.length; i++) {
    placed.left[i] *= gl;
    placed.right[i] *= gr;
  }
  return placed;
}

function mapValues<T extends object>(o: T, f: (v: string) => string): T {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v as string)])) as T;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
