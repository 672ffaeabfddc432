import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { encodeWav, STEM_TYPES, type StemType, type StereoAudio } from '@stemdeck/audio';
import type { DevTrackSpec, TrackSpec } from './catalog';
import { GENERATOR_VERSION } from './catalog';
import { META_FILE, MIXTURE_FILE, stemFile, type EvalTrackMeta } from './meta';
import { fadeOut, limitCrest, mixdown, type StemSetAudio } from './mixdown';
import { writeAccompaniment } from './parts/accompaniment';
import { writeBass } from './parts/bass';
import { writeDrums } from './parts/drums';
import { writeMelody, type VocalNote } from './parts/melody';
import { Rng } from './random';
import { renderMidiStem } from './render';
import { microsPerQuarter, writeMidiFile, type MidiChannelSetup, type MidiSong } from './smf';
import { planSong, type SongPlan } from './song';
import type { StyleName } from './styles';
import type { TuningTrackSpec } from './tuning/catalog';
import { TUNING_STYLES, type TuningStyleName } from './tuning/styles';
import { keyName } from './theory';
import { placeVocal } from './voice/reverb';
import { sing } from './voice/singer';

export const SAMPLE_RATE = 44100;
const PEAK_DBFS = -1;

/** Stem levels (active RMS, dB) before the common gain: vocal-forward pop balance, per-style tweaks. */
const STYLE_LEVELS: Record<StyleName, Record<StemType, number>> = {
  pop: { vocals: 0, drums: -1.5, bass: -3, other: -4 },
  rock: { vocals: 0, drums: -1, bass: -3, other: -2.5 },
  funk: { vocals: 0, drums: -1, bass: -2, other: -4 },
  house: { vocals: -1, drums: 0, bass: -2, other: -4 },
  synthpop: { vocals: 0, drums: -1, bass: -2.5, other: -3.5 },
  'hiphop-ballad': { vocals: 0, drums: -1.5, bass: -2.5, other: -4.5 },
  'soul-ballad': { vocals: 0, drums: -4, bass: -4, other: -3 },
  'drum-and-bass': { vocals: -1, drums: 0, bass: -1.5, other: -4 },
};

/** Peak-to-active-RMS allowed per stem (dB): drums get the firmest control, as on a mix bus. */
const CREST_DB: Record<StemType, number> = { vocals: 13, drums: 12, bass: 12, other: 14 };

export type RenderSlot = <T>(task: () => Promise<T>) => Promise<T>;

/** Writes <outDir>/<id>/{mixture,stems}.wav, midi/*.mid and meta.json for one track. */
export async function generateTrack(spec: DevTrackSpec | TuningTrackSpec, outDir: string, slot: RenderSlot): Promise<EvalTrackMeta> {
  const dir = path.join(outDir, spec.id);
  const midiDir = path.join(dir, 'midi');
  await fs.mkdir(midiDir, { recursive: true });
  const rng = new Rng(spec.seed);
  const plan = planSong(spec, rng.fork('plan'));
  const tempo = microsPerQuarter(spec.bpm);
  const frames = Math.round(spec.durationSeconds * SAMPLE_RATE);

  const drums = writeDrums(plan, rng.fork('drums'), tempo);
  const bass = writeBass(plan, rng.fork('bass'), tempo);
  const accompaniment = writeAccompaniment(plan, rng.fork('other'), tempo);
  const melody = writeMelody(plan, rng.fork('melody'));
  await fs.writeFile(path.join(midiDir, 'vocals.mid'), writeMidiFile(melodyAsMidi(melody.notes, plan, tempo)));

  // fluidsynth renders in child processes while this process synthesizes the voice.
  const render = (name: string, song: MidiSong) =>
    slot(async () => {
      const midiPath = path.join(midiDir, `${name}.mid`);
      await fs.writeFile(midiPath, writeMidiFile(song));
      return renderMidiStem(midiPath, path.join(dir, `.${name}.render.wav`), SAMPLE_RATE, frames);
    });
  const rendered = Promise.all([render('drums', drums), render('bass', bass), render('other', accompaniment.song)]);
  const vocals = singVocals(melody.notes, melody.voice, plan, frames, rng.fork('voice'));
  const [drumAudio, bassAudio, otherAudio] = await rendered;

  const raw: StemSetAudio = { vocals, drums: drumAudio, bass: bassAudio, other: otherAudio };
  const levelRng = rng.fork('levels');
  const levels = {} as Record<StemType, number>;
  for (const stem of STEM_TYPES) {
    limitCrest(raw[stem], CREST_DB[stem]);
    fadeOut(raw[stem], 0.5);
    const styleLevels = spec.style in TUNING_STYLES ? TUNING_STYLES[spec.style as TuningStyleName].levelsDb : STYLE_LEVELS[spec.style as StyleName];
    levels[stem] = styleLevels[stem] + levelRng.range(-1, 1);
  }
  const mix = mixdown(raw, levels, PEAK_DBFS);

  await fs.writeFile(path.join(dir, MIXTURE_FILE), encodeWav(mix.mixture, 32));
  for (const stem of STEM_TYPES) await fs.writeFile(path.join(dir, stemFile(stem)), encodeWav(mix.stems[stem], 32));

  const meta = trackMeta(spec, plan, GENERATOR_VERSION, mix.peakDbfs, {
    voice: melody.voice,
    drumKit: drums.channels[0].program,
    bassProgram: bass.channels[0].program,
    other: accompaniment.instruments.map(({ program, name, role, pan }) => ({ program, name, role, pan })),
  });
  await fs.writeFile(path.join(dir, META_FILE), JSON.stringify(meta, null, 2) + '\n');
  return meta;
}

/** meta.json for a track: ground truth (tempo, key, chords, sections) and what played. */
export function trackMeta(spec: TrackSpec, plan: SongPlan, generatorVersion: number, mixturePeakDbfs: number, arrangement: EvalTrackMeta['arrangement']): EvalTrackMeta {
  return {
    id: spec.id,
    bpm: spec.bpm,
    key: keyName(spec.tonicPitchClass, spec.mode),
    tonicPitchClass: spec.tonicPitchClass,
    mode: spec.mode,
    timeSignature: 4,
    durationSeconds: spec.durationSeconds,
    genre: spec.style,
    sampleRate: SAMPLE_RATE,
    frames: Math.round(spec.durationSeconds * SAMPLE_RATE),
    generatorVersion,
    arrangement,
    progressions: plan.progressions,
    chords: plan.bars
      .map((b) => ({ startSeconds: round3(b.startBeat * plan.secondsPerBeat), symbol: b.chord.symbol, roman: b.chord.roman }))
      .filter((c) => c.startSeconds < spec.durationSeconds),
    sections: plan.bars
      .filter((b) => b.barInSection === 0)
      .map((b) => ({ startSeconds: round3(b.startBeat * plan.secondsPerBeat), kind: b.section }))
      .filter((s) => s.startSeconds < spec.durationSeconds),
    mixturePeakDbfs: round3(mixturePeakDbfs),
  };
}

function singVocals(notes: VocalNote[], voice: 'male' | 'female', plan: SongPlan, frames: number, rng: Rng): StereoAudio {
  const spb = plan.secondsPerBeat;
  const sung = notes.map((n) => ({
    start: n.beat * spb,
    end: (n.beat + n.beats) * spb,
    pitch: n.pitch,
    velocity: n.velocity,
    consonant: n.consonant,
    vowel: n.vowel,
    slur: n.slur,
  }));
  const dry = sing(sung, { sampleRate: SAMPLE_RATE, frames, voice, rng });
  return placeVocal(dry, SAMPLE_RATE, { wet: 0.5, roomSize: 0.55, damping: 0.45, preDelaySeconds: 0.025 });
}

/** The sung melody as MIDI (a reference in the development set; the held-out set renders it with voice patches). */
export function melodyAsMidi(notes: readonly Pick<VocalNote, 'beat' | 'beats' | 'pitch' | 'velocity'>[], plan: SongPlan, tempo: number, channel: Omit<MidiChannelSetup, 'channel'> = { program: 53 }): MidiSong {
  return {
    microsPerQuarter: tempo,
    channels: [{ channel: 0, ...channel }],
    notes: notes.map((n) => ({ channel: 0, beat: n.beat, beats: n.beats, pitch: n.pitch, velocity: n.velocity })),
    endBeat: plan.totalBeats,
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
