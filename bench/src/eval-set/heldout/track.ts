import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { encodeWav, STEM_TYPES, type StemType, type StereoAudio } from '@stemdeck/audio';
import { META_FILE, MIXTURE_FILE, stemFile, type EvalTrackMeta, type HeldoutSources } from '../meta';
import { fadeOut, limitCrest, mixdown, type StemSetAudio } from '../mixdown';
import { writeAccompaniment } from '../parts/accompaniment';
import { writeBass } from '../parts/bass';
import { writeDrums } from '../parts/drums';
import { writeMelody, type VocalNote } from '../parts/melody';
import { Rng } from '../random';
import { renderMidiStem, type FluidReverb } from '../render';
import { microsPerQuarter, writeMidiFile, type MidiSong } from '../smf';
import { planSong, type SongPlan } from '../song';
import { melodyAsMidi, SAMPLE_RATE, trackMeta, type RenderSlot } from '../track';
import { HELDOUT_SINGERS } from '../voice/profiles';
import { placeVocal, type ReverbOptions } from '../voice/reverb';
import { sing } from '../voice/singer';
import { SPEECH_LINES, SPEECH_VOICES, speakVocal } from '../voice/speech';
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

/** General MIDI voice patches that sing the 'soundfont' vocals. */
const VOICE_PATCHES = [
  { program: 52, name: 'choir aahs' },
  { program: 53, name: 'voice oohs' },
  { program: 54, name: 'synth voice' },
];

const PEAK_DBFS = -1;

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
/** Crest limits are drawn per stem: from barely limited to squashed (development: fixed 12–14 dB). */
const CREST_RANGE: [number, number] = [9, 18];

export function missingHeldoutTools(): string[] {
  const missing: string[] = [];
  if (!existsSync(TIMGM6MB)) missing.push(`${TIMGM6MB} (Debian package timgm6mb-soundfont)`);
  if (!existsSync(MUSESCORE_GENERAL)) missing.push(`${MUSESCORE_GENERAL} (Debian package musescore-general-soundfont-small)`);
  if (!['/usr/bin/espeak-ng', '/usr/local/bin/espeak-ng'].some((p) => existsSync(p))) missing.push('espeak-ng (Debian package espeak-ng)');
  return missing;
}

/** Writes one held-out track: the same layout as a development track, from the held-out sources. */
export async function generateHeldoutTrack(spec: HeldoutTrackSpec, outDir: string, slot: RenderSlot): Promise<EvalTrackMeta> {
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
    drums: TIMGM6MB_KITS.includes(kit) ? TIMGM6MB : MUSESCORE_GENERAL,
    bass: mixRng.pick(MELODIC_SOUNDFONTS),
    other: mixRng.pick(MELODIC_SOUNDFONTS),
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
      return renderMidiStem(midiPath, path.join(dir, `.${name}.render.wav`), SAMPLE_RATE, frames, { soundfont, reverb });
    });
  const rendered = Promise.all([
    render('drums', drums, soundfonts.drums),
    render('bass', bass, soundfonts.bass),
    render('other', accompaniment.song, soundfonts.other),
  ]);

  const turn = spec.vocalTurn;
  let vocal: { audio: StereoAudio; detail: string; voice: string };
  if (spec.vocal === 'formant') {
    const singer = HELDOUT_SINGERS[turn % HELDOUT_SINGERS.length];
    const melody = writeMelody(plan, rng.fork('melody'), singer.rangeCentre);
    await fs.writeFile(path.join(midiDir, 'vocals.mid'), writeMidiFile(melodyAsMidi(melody.notes, plan, tempo)));
    const dry = sing(toSeconds(melody.notes, plan), { sampleRate: SAMPLE_RATE, frames, voice: melody.voice, rng: rng.fork('voice'), character: singer });
    vocal = { audio: room(dry, vocalRoom), detail: `formant singer "${singer.name}"`, voice: singer.name };
  } else if (spec.vocal === 'soundfont') {
    const patch = VOICE_PATCHES[turn % VOICE_PATCHES.length];
    soundfonts.vocals = MELODIC_SOUNDFONTS[turn % MELODIC_SOUNDFONTS.length];
    const melody = writeMelody(plan, rng.fork('melody'));
    const song = melodyAsMidi(melody.notes, plan, tempo, { program: patch.program, pan: 64 + Math.round(vocalRoom.pan * 63), volume: 110, reverbSend: Math.round(vocalRoom.wet * 100) });
    const audio = await render('vocals', song, soundfonts.vocals);
    vocal = { audio, detail: `GM ${patch.program} ${patch.name} from ${path.basename(soundfonts.vocals)}`, voice: patch.name };
  } else {
    const speaker = SPEECH_VOICES[turn % SPEECH_VOICES.length];
    const firstLine = rng.fork('lyrics').int(0, SPEECH_LINES.length - 1);
    const melody = writeMelody(plan, rng.fork('melody'));
    // The melody is not heard; its notes time the words (and stay as the rhythm reference).
    await fs.writeFile(path.join(midiDir, 'vocals.mid'), writeMidiFile(melodyAsMidi(melody.notes, plan, tempo)));
    const dry = await slot(() => speakVocal(melody.notes, plan.secondsPerBeat, frames, SAMPLE_RATE, speaker, spec.vocal as 'spoken' | 'rapped', firstLine, dir));
    const detail = `espeak-ng ${spec.vocal}: voice ${speaker.espeak}, ${speaker.wordsPerMinute} wpm, pitch ${speaker.pitch}`;
    vocal = { audio: room(dry, vocalRoom), detail, voice: speaker.espeak };
  }
  const [drumAudio, bassAudio, otherAudio] = await rendered;

  const raw: StemSetAudio = { vocals: vocal.audio, drums: drumAudio, bass: bassAudio, other: otherAudio };
  const levelsDb = {} as Record<StemType, number>;
  const crestDb = {} as Record<StemType, number>;
  for (const stem of STEM_TYPES) {
    crestDb[stem] = round2(mixRng.range(CREST_RANGE[0], CREST_RANGE[1]));
    levelsDb[stem] = round2(mixRng.range(LEVEL_RANGES[stem][0], LEVEL_RANGES[stem][1]));
    limitCrest(raw[stem], crestDb[stem]);
    fadeOut(raw[stem], 0.5);
  }
  const mix = mixdown(raw, levelsDb, PEAK_DBFS);

  await fs.writeFile(path.join(dir, MIXTURE_FILE), encodeWav(mix.mixture, 32));
  for (const stem of STEM_TYPES) await fs.writeFile(path.join(dir, stemFile(stem)), encodeWav(mix.stems[stem], 32));

  const meta: EvalTrackMeta = {
    ...trackMeta(spec, plan, HELDOUT_GENERATOR_VERSION, mix.peakDbfs, {
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
