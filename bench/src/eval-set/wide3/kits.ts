import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { StereoAudio } from '@stemdeck/audio';
import type { FluidReverb } from '../render';
import { Rng } from '../random';
import type { MidiSong } from '../smf';
import { DRUM_KEYS, type DrumVoice } from '../styles';
import { roomTail } from '../voice/reverb';

/** Debian package hydrogen-drumkits: Hydrogen's sampled kits, one folder each with its drumkit.xml. */
export const HYDROGEN_KITS_DIR = '/usr/share/hydrogen/data/drumkits';

/**
 * The kits the third family plays: every one with a kick, a snare and a hi-hat, except The Black Pearl (the
 * kit the second family's avldrums Black Pearl samples).
 */
export const HYDROGEN_KITS = [
  'Audiophob',
  'BJA_Pacific',
  'ColomboAcousticDrumkit',
  'ElectricEmpireKit',
  'ForzeeStereo',
  'HardElectro1',
  'Millo-Drums_v.1',
  'Millo_MultiLayered2',
  'Millo_MultiLayered3',
  'VariBreaks',
  'rumpf_kit_z01_h2',
] as const;

export interface KitLayer {
  file: string;
  /** Velocity range 0..1 the layer answers. */
  min: number;
  max: number;
  gain: number;
}

export interface KitInstrument {
  name: string;
  volume: number;
  panL: number;
  panR: number;
  layers: KitLayer[];
}

/**
 * Reads a Hydrogen drumkit.xml (layered, or the older one-file-per-instrument form), keeping the layers whose
 * sample `exists`: Debian's package leaves out a few samples its source kits name.
 */
export function parseDrumkit(xml: string, dir: string, exists: (file: string) => boolean = existsSync): KitInstrument[] {
  const tag = (block: string, name: string) => block.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1];
  const num = (block: string, name: string, fallback: number) => {
    const text = tag(block, name);
    return text !== undefined && Number.isFinite(Number(text)) ? Number(text) : fallback;
  };
  const instruments: KitInstrument[] = [];
  for (const [, block] of xml.matchAll(/<instrument>([\s\S]*?)<\/instrument>/g)) {
    const layerBlocks = [...block.matchAll(/<layer>([\s\S]*?)<\/layer>/g)].map((m) => m[1]);
    const layers = (layerBlocks.length > 0 ? layerBlocks : [block])
      .map((b) => ({ file: tag(b, 'filename'), min: num(b, 'min', 0), max: num(b, 'max', 1), gain: num(b, 'gain', 1) }))
      .filter((l): l is KitLayer => !!l.file)
      .map((l) => ({ ...l, file: path.join(dir, l.file) }))
      .filter((l) => exists(l.file));
    if (layers.length === 0) continue;
    instruments.push({ name: (tag(block, 'name') ?? '').trim(), volume: num(block, 'volume', 1), panL: num(block, 'pan_L', 1), panR: num(block, 'pan_R', 1), layers });
  }
  return instruments;
}

/** What each drum voice of the song's parts looks for in a kit's instrument names, then what stands in for it. */
const VOICE_NAMES: Record<DrumVoice, { match: RegExp; not?: RegExp; else: DrumVoice[] }> = {
  kick: { match: /kick|bass ?drum|\bbd\b|bass drum/i, else: [] },
  snare: { match: /snare/i, not: /rim|roll|stick/i, else: [] },
  sideStick: { match: /stick|rim/i, else: ['snare'] },
  clap: { match: /clap/i, else: ['snare'] },
  closedHat: { match: /(clos|\bcl\b|\bhh\b|hat)/i, not: /open|\bop\b|pedal|\bpd\b|semi|swish|choke/i, else: [] },
  pedalHat: { match: /pedal|\bpd\b/i, else: ['closedHat'] },
  openHat: { match: /open|\bop\b|\bohh\b/i, else: ['closedHat'] },
  ride: { match: /ride/i, not: /bell|cup|crash/i, else: ['crash', 'openHat'] },
  crash: { match: /crash/i, else: ['ride', 'openHat'] },
  crash2: { match: /crash/i, else: ['crash'] },
  tambourine: { match: /tamb/i, else: ['closedHat'] },
  shaker: { match: /shak|maraca/i, else: ['closedHat'] },
  highTom: { match: /tom.*(hi|high|\b1\b)|(hi|high).*tom|^tom$/i, else: ['midTom', 'lowTom'] },
  midTom: { match: /tom.*(mid|\b2\b)|mid.*tom|^tom$/i, else: ['highTom', 'lowTom'] },
  lowTom: { match: /tom.*(low|lo\b|\b3\b)|(low|lo) .*tom/i, else: ['floorTom', 'midTom', 'snare'] },
  floorTom: { match: /floor/i, else: ['lowTom', 'midTom'] },
};

/**
 * Which of a kit's instruments plays each drum voice: one whose name matches (the first, or with `rng` a drawn
 * one; a second crash takes the kit's second crash), else the voice's stand-in; `undefined` for a voice the kit
 * cannot play (its hits are left out).
 */
export function assignVoices(names: readonly string[], rng?: Rng): Partial<Record<DrumVoice, number>> {
  const direct = {} as Partial<Record<DrumVoice, number>>;
  for (const voice of Object.keys(VOICE_NAMES) as DrumVoice[]) {
    const { match, not } = VOICE_NAMES[voice];
    const hits = names.map((n, i) => ({ n, i })).filter(({ n }) => match.test(n) && !not?.test(n));
    const pick = voice === 'crash2' ? hits[1] : rng && hits.length > 0 ? rng.pick(hits) : hits[0];
    if (pick) direct[voice] = pick.i;
  }
  const resolved = { ...direct };
  const resolve = (voice: DrumVoice, seen: Set<DrumVoice>): number | undefined => {
    if (direct[voice] !== undefined) return direct[voice];
    for (const other of VOICE_NAMES[voice].else) {
      if (seen.has(other)) continue;
      const found = resolve(other, new Set([...seen, voice]));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const voice of Object.keys(VOICE_NAMES) as DrumVoice[]) {
    const found = resolve(voice, new Set([voice]));
    if (found !== undefined) resolved[voice] = found;
  }
  return resolved;
}

const samples = new Map<string, StereoAudio>();

/** A sample file as 44.1 kHz stereo float (ffmpeg decodes wav, flac and aiff alike), kept for the process. */
export function loadSample(file: string, sampleRate: number): StereoAudio {
  const key = `${file}@${sampleRate}`;
  const cached = samples.get(key);
  if (cached) return cached;
  const out = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-ac', '2', '-ar', String(sampleRate), '-'], { maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`ffmpeg could not decode ${file}: ${out.stderr.toString().trim()}`);
  const all = new Float32Array(out.stdout.buffer, out.stdout.byteOffset, out.stdout.byteLength / 4);
  const frames = all.length / 2;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = all[2 * i];
    right[i] = all[2 * i + 1];
  }
  const audio = { sampleRate, left, right };
  samples.set(key, audio);
  return audio;
}

const VOICE_OF_KEY = new Map<number, DrumVoice>(Object.entries(DRUM_KEYS).map(([voice, key]) => [key, voice as DrumVoice]));
const HAT_CHOKERS = new Set<DrumVoice>(['closedHat', 'pedalHat']);
const CHOKE_FADE_SECONDS = 0.02;

/**
 * Plays the song's drum part on a Hydrogen kit: each hit the layer its velocity falls in (a random one of
 * several that do), at the velocity's gain, panned by the instrument's own pan and the channel's; an open
 * hi-hat is choked by the next closed or pedal one; the channel's reverb send feeds a Freeverb room.
 */
export function playKit(song: MidiSong, kitDir: string, sampleRate: number, frames: number, reverb: FluidReverb, seed: number): StereoAudio {
  const kit = parseDrumkit(readFileSync(path.join(kitDir, 'drumkit.xml'), 'utf8'), kitDir);
  const rng = new Rng(seed);
  const voices = assignVoices(kit.map((i) => i.name), rng.fork('voices'));
  return playKitInstruments(song, kit, voices, rng, sampleRate, frames, reverb);
}

/** Plays the drum part on `kit`'s instruments as `voices` assigns them (`rng` draws among fitting layers). */
export function playKitInstruments(
  song: MidiSong,
  kit: readonly KitInstrument[],
  voices: Partial<Record<DrumVoice, number>>,
  rng: Rng,
  sampleRate: number,
  frames: number,
  reverb: FluidReverb,
): StereoAudio {
  const [channel] = song.channels;
  const angle = (((channel.pan ?? 64) / 127) * Math.PI) / 2;
  const send = (channel.reverbSend ?? 0) / 127;
  const secondsPerBeat = song.microsPerQuarter / 1e6;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  const wet = new Float32Array(frames);
  const hits = song.notes
    .map((n) => ({ voice: VOICE_OF_KEY.get(n.pitch), start: Math.round(n.beat * secondsPerBeat * sampleRate), velocity: n.velocity / 127 }))
    .filter((h): h is { voice: DrumVoice; start: number; velocity: number } => h.voice !== undefined && voices[h.voice] !== undefined)
    .sort((a, b) => a.start - b.start);
  const chokes = hits.filter((h) => HAT_CHOKERS.has(h.voice)).map((h) => h.start);
  const fade = Math.round(CHOKE_FADE_SECONDS * sampleRate);
  for (const hit of hits) {
    const inst = kit[voices[hit.voice]!];
    const fitting = inst.layers.filter((l) => hit.velocity >= l.min && hit.velocity <= l.max);
    const layer = fitting.length > 0 ? rng.pick(fitting) : nearestLayer(inst.layers, hit.velocity);
    const audio = loadSample(layer.file, sampleRate);
    const gain = layer.gain * inst.volume * Math.pow(hit.velocity, 1.6);
    const gl = gain * inst.panL * Math.SQRT2 * Math.cos(angle);
    const gr = gain * inst.panR * Math.SQRT2 * Math.sin(angle);
    const chokeAt = hit.voice === 'openHat' ? chokes.find((c) => c > hit.start) : undefined;
    const end = Math.min(frames, hit.start + audio.left.length, chokeAt === undefined ? Infinity : chokeAt + fade);
    for (let i = hit.start; i < end; i++) {
      const k = i - hit.start;
      const env = chokeAt !== undefined && i >= chokeAt ? 1 - (i - chokeAt) / fade : 1;
      const l = audio.left[k] * gl * env;
      const r = audio.right[k] * gr * env;
      left[i] += l;
      right[i] += r;
      wet[i] += (l + r) * 0.5 * send;
    }
  }
  const out = { sampleRate, left, right };
  addRoom(out, wet, reverb);
  return out;
}

/** Adds the stem's one Freeverb room, fed by the summed sends in `wet`, to `out` at the reverb's level (both samplers). */
export function addRoom(out: StereoAudio, wet: Float32Array, reverb: FluidReverb): void {
  const tail = roomTail(wet, out.sampleRate, { wet: 1, roomSize: reverb.roomSize, damping: reverb.damping, preDelaySeconds: 0.01 });
  for (let i = 0; i < out.left.length; i++) {
    out.left[i] += reverb.level * tail.left[i];
    out.right[i] += reverb.level * tail.right[i];
  }
}

function nearestLayer(layers: KitLayer[], velocity: number): KitLayer {
  const distance = (l: KitLayer) => (velocity < l.min ? l.min - velocity : velocity - l.max);
  return layers.reduce((best, l) => (distance(l) < distance(best) ? l : best));
}
