import type { StereoAudio } from '@stemdeck/audio';
import type { FluidReverb } from '../render';
import type { Rng } from '../random';
import type { MidiSong } from '../smf';
import { addRoom, loadSample } from '../wide3/kits';

/**
 * A pitched sampler for single-sample instruments: one recording per instrument, read faster or slower for
 * each note (4-point Hermite interpolation), looped over a crossfaded stretch when the recording sustains and the
 * note outlasts it, released with an exponential fade after the note ends.
 */

/** A recording ready to play at any pitch. */
export interface PitchedSample {
  file: string;
  /** Trimmed of leading silence, levelled; a looped sample's end is crossfaded into its loop start. */
  audio: StereoAudio;
  /** The MIDI pitch the recording sounds at (fractional: its own tuning is kept). */
  root: number;
  /** Frames [start, end): reading past `end` goes on at `start`. Absent: the recording decays and plays once. */
  loop?: { start: number; end: number };
}

/** What one channel plays with: the sample, and this channel's release and tone. */
export interface ChannelVoice {
  sample: PitchedSample;
  releaseSeconds: number;
  /** One-pole low-pass cutoff (Hz) after the sampler: a darker or brighter take of the same recording. */
  toneHz: number;
}

const ONSET_DB = -40;
const LEVEL_RMS = 0.1;
const FADE_IN_SECONDS = 0.002;
/** A tail this close to the body's level (dB) counts as sustained, so the sample may loop. */
const SUSTAIN_DB = -12;
const YIN_THRESHOLD = 0.15;
/** Frames of the loop's start repeated after its end (the interpolator reads two ahead). */
const LOOP_GUARD = 4;

/**
 * The fundamental of a recording (Hz) by YIN (de Cheveigné & Kawahara 2002): the cumulative-mean-normalised
 * difference function over a window after the attack, its first dip below 0.15 refined by a parabola;
 * undefined when no period is clear (a noisy or inharmonic sound).
 */
export function detectPitch(x: Float32Array, sampleRate: number, minHz = 30, maxHz = 2000): number | undefined {
  const maxLag = Math.ceil(sampleRate / minHz);
  const minLag = Math.floor(sampleRate / maxHz);
  const start = Math.min(Math.round(0.06 * sampleRate), Math.floor(x.length / 4));
  const window = Math.min(Math.round(0.2 * sampleRate), x.length - start - maxLag - 2);
  if (window < 2 * minLag) return undefined;
  const d = new Float64Array(maxLag + 2);
  for (let lag = 1; lag <= maxLag + 1; lag++) {
    let sum = 0;
    for (let j = start; j < start + window; j++) {
      const diff = x[j] - x[j + lag];
      sum += diff * diff;
    }
    d[lag] = sum;
  }
  const cmnd = new Float64Array(maxLag + 2);
  cmnd[0] = 1;
  let running = 0;
  for (let lag = 1; lag <= maxLag + 1; lag++) {
    running += d[lag];
    cmnd[lag] = running > 0 ? (d[lag] * lag) / running : 1;
  }
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (cmnd[lag] >= YIN_THRESHOLD) continue;
    while (lag + 1 <= maxLag && cmnd[lag + 1] < cmnd[lag]) lag++;
    const [a, b, c] = [cmnd[lag - 1], cmnd[lag], cmnd[lag + 1]];
    const denominator = a - 2 * b + c;
    const shift = denominator > 0 ? (0.5 * (a - c)) / denominator : 0;
    return sampleRate / (lag + shift);
  }
  return undefined;
}

function rms(x: Float32Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += x[i] * x[i];
  return Math.sqrt(sum / Math.max(1, to - from));
}

/**
 * Makes a recording playable: cut to its onset, levelled (RMS of its first second, no peak above 0.99), its root
 * found, and, when its tail holds near its body's level, a loop over 35–90 % of it with an equal-power crossfade
 * written into the loop's last frames. Undefined when the recording has no clear pitch.
 */
export function preparePitched(file: string, raw: StereoAudio): PitchedSample | undefined {
  const { sampleRate } = raw;
  const mono = new Float32Array(raw.left.length);
  let peak = 0;
  for (let i = 0; i < mono.length; i++) {
    mono[i] = 0.5 * (raw.left[i] + raw.right[i]);
    peak = Math.max(peak, Math.abs(raw.left[i]), Math.abs(raw.right[i]));
  }
  if (peak === 0) return undefined;
  const threshold = peak * Math.pow(10, ONSET_DB / 20);
  let onset = mono.findIndex((v) => Math.abs(v) >= threshold);
  onset = Math.max(0, onset - Math.round(0.002 * sampleRate));
  const body = mono.subarray(onset);
  const hz = detectPitch(body, sampleRate);
  if (hz === undefined) return undefined;
  const level = Math.min(LEVEL_RMS / Math.max(1e-9, rms(body, 0, Math.min(body.length, sampleRate))), 0.99 / peak);
  const left = raw.left.slice(onset).map((v) => v * level);
  const right = raw.right.slice(onset).map((v) => v * level);
  const n = left.length;
  const root = 69 + 12 * Math.log2(hz / 440);
  const tail = rms(body, Math.round(0.7 * n), Math.round(0.95 * n));
  const held = rms(body, Math.round(0.1 * n), Math.round(0.35 * n));
  if (n < 0.15 * sampleRate || tail < held * Math.pow(10, SUSTAIN_DB / 20)) return { file, audio: { sampleRate, left, right }, root };
  const start = Math.round(0.35 * n);
  const end = Math.round(0.9 * n);
  const fade = Math.min(Math.round(0.12 * sampleRate), Math.floor((end - start) / 3));
  for (const ch of [left, right]) {
    for (let j = 0; j < fade; j++) {
      const t = (j + 0.5) / fade;
      ch[end - fade + j] = ch[end - fade + j] * Math.cos((t * Math.PI) / 2) + ch[start - fade + j] * Math.sin((t * Math.PI) / 2);
    }
  }
  // The loop's first frames again after its end, so interpolation just before the end reads on into the start.
  const looped = (ch: Float32Array) => {
    const out = new Float32Array(end + LOOP_GUARD);
    out.set(ch.subarray(0, end));
    out.set(ch.subarray(start, start + LOOP_GUARD), end);
    return out;
  };
  return { file, audio: { sampleRate, left: looped(left), right: looped(right) }, root, loop: { start, end } };
}

const prepared = new Map<string, PitchedSample | undefined>();

/** A file from a pool, prepared once per process (undefined: no clear pitch, so the pool goes without it). */
export function pitchedSample(file: string, sampleRate: number): PitchedSample | undefined {
  if (!prepared.has(file)) prepared.set(file, preparePitched(file, loadSample(file, sampleRate)));
  return prepared.get(file);
}

function hermite(x: Float32Array, position: number): number {
  const i = Math.floor(position);
  const f = position - i;
  const xm1 = x[i - 1] ?? 0;
  const x0 = x[i] ?? 0;
  const x1 = x[i + 1] ?? 0;
  const x2 = x[i + 2] ?? 0;
  const c1 = 0.5 * (x1 - xm1);
  const c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2;
  const c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1);
  return ((c3 * f + c2) * f + c1) * f + x0;
}

/**
 * Plays a stem's notes, each channel on its voice: pitch by reading speed from the sample's root, velocity as
 * gain (v^1.6), the channel's volume (GM's square law), constant-power pan and reverb send into one Freeverb
 * room, as the kit sampler does.
 */
export function playPitched(song: MidiSong, voices: ReadonlyMap<number, ChannelVoice>, sampleRate: number, frames: number, reverb: FluidReverb): StereoAudio {
  const secondsPerBeat = song.microsPerQuarter / 1e6;
  const out = { sampleRate, left: new Float32Array(frames), right: new Float32Array(frames) };
  const wet = new Float32Array(frames);
  for (const channel of song.channels) {
    const voice = voices.get(channel.channel);
    if (!voice) continue;
    const { audio, root, loop } = voice.sample;
    const dry = { left: new Float32Array(frames), right: new Float32Array(frames) };
    const release = Math.max(1, Math.round(voice.releaseSeconds * sampleRate));
    const fadeIn = Math.round(FADE_IN_SECONDS * sampleRate);
    for (const note of song.notes) {
      if (note.channel !== channel.channel) continue;
      const start = Math.round(note.beat * secondsPerBeat * sampleRate);
      const off = Math.round((note.beat + note.beats) * secondsPerBeat * sampleRate);
      const step = Math.pow(2, (note.pitch - root) / 12) * (audio.sampleRate / sampleRate);
      const gain = Math.pow(note.velocity / 127, 1.6);
      const last = Math.min(frames, off + release);
      let position = 0;
      for (let i = start; i < last; i++) {
        if (loop && position >= loop.end) position -= loop.end - loop.start;
        if (position >= audio.left.length - 1) break;
        const k = i - start;
        const env = (k < fadeIn ? k / fadeIn : 1) * (i < off ? 1 : Math.exp((-6.9 * (i - off)) / release));
        dry.left[i] += gain * env * hermite(audio.left, position);
        dry.right[i] += gain * env * hermite(audio.right, position);
        position += step;
      }
    }
    const a = Math.exp((-2 * Math.PI * voice.toneHz) / sampleRate);
    const volume = Math.pow((channel.volume ?? 100) / 127, 2);
    const angle = (((channel.pan ?? 64) / 127) * Math.PI) / 2;
    const gl = volume * Math.SQRT2 * Math.cos(angle);
    const gr = volume * Math.SQRT2 * Math.sin(angle);
    const send = (channel.reverbSend ?? 0) / 127;
    let yl = 0;
    let yr = 0;
    for (let i = 0; i < frames; i++) {
      yl = (1 - a) * dry.left[i] + a * yl;
      yr = (1 - a) * dry.right[i] + a * yr;
      out.left[i] += gl * yl;
      out.right[i] += gr * yr;
      wet[i] += 0.5 * (gl * yl + gr * yr) * send;
    }
  }
  addRoom(out, wet, reverb);
  return out;
}

/** A voice for a channel: a sample drawn from the pool (those with a clear pitch), a release and a tone drawn. */
export function drawVoice(pool: readonly string[], sustained: boolean, sampleRate: number, rng: Rng): ChannelVoice {
  const playable = pool.map((file) => pitchedSample(file, sampleRate)).filter((s): s is PitchedSample => s !== undefined);
  if (playable.length === 0) throw new Error(`no sample with a clear pitch in ${pool.join(', ')}`);
  const sample = rng.pick(playable);
  const releaseSeconds = sustained ? rng.range(0.15, 0.6) : rng.range(0.05, 0.2);
  const toneHz = Math.exp(rng.range(Math.log(2500), Math.log(18000)));
  return { sample, releaseSeconds, toneHz };
}
