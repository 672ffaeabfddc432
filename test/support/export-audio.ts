/**
 * Audio for the export specs: four synthetic stems (deterministic lavfi sources, stereo, each channel its own),
 * decoding to float and residual measurements between renders.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAudio, encodeWav, type StereoAudio, type StemType } from '@stemdeck/audio';

/**
 * One expression per channel and stem, peaks about 0.2 each (the four summed stay below full scale): vocals a
 * vibrato tone with a syllable envelope, drums a decaying kick and a noise hat, bass a low tone, other a chord.
 */
const STEM_EXPRESSIONS: Record<StemType, [string, string]> = {
  vocals: [
    '0.18*sin(2*PI*(440*t+3*sin(2*PI*5*t)))*(0.6+0.4*sin(2*PI*2*t))',
    '0.16*sin(2*PI*(554*t+3*sin(2*PI*5*t)))*(0.6+0.4*sin(2*PI*2*t+1))',
  ],
  drums: [
    '0.2*sin(2*PI*55*t)*exp(-mod(t,0.5)*14)+0.05*(random(0)*2-1)*exp(-mod(t+0.25,0.5)*40)',
    '0.2*sin(2*PI*55*t)*exp(-mod(t,0.5)*14)+0.05*(random(1)*2-1)*exp(-mod(t+0.25,0.5)*40)',
  ],
  bass: ['0.2*sin(2*PI*82.4*t)+0.03*sin(2*PI*164.8*t)', '0.19*sin(2*PI*82.4*t+0.3)+0.03*sin(2*PI*164.8*t)'],
  other: [
    '0.07*(sin(2*PI*261.6*t)+sin(2*PI*329.6*t)+sin(2*PI*392*t))',
    '0.07*(sin(2*PI*261.6*t+1)+sin(2*PI*329.6*t+2)+sin(2*PI*392*t+3))',
  ],
};

export const EXPORT_STEM_TYPES: StemType[] = ['vocals', 'drums', 'bass', 'other'];

/**
 * Writes one stem as stored audio: 24-bit FLAC (what separation stores) or, with `wav16`, a 16-bit WAV (what older
 * projects hold).
 */
export function makeStem(path: string, type: StemType, options: { seconds: number; sampleRate?: number; wav16?: boolean }): string {
  const [left, right] = STEM_EXPRESSIONS[type];
  const codec = options.wav16 ? ['-c:a', 'pcm_s16le', '-f', 'wav'] : ['-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24', '-f', 'flac'];
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc=exprs='${left}|${right}':s=${options.sampleRate ?? 44_100}:d=${options.seconds}`,
    ...codec, path,
  ]);
  return path;
}

/** The four stems in `dir` as `<type>.flac` (or `.wav` for those listed in `wav16`). */
export function makeStems(dir: string, options: { seconds: number; sampleRate?: number; wav16?: StemType[] }): Record<StemType, string> {
  const paths = {} as Record<StemType, string>;
  for (const type of EXPORT_STEM_TYPES) {
    const wav16 = options.wav16?.includes(type) ?? false;
    paths[type] = makeStem(join(dir, `${type}.${wav16 ? 'wav' : 'flac'}`), type, { ...options, wav16 });
  }
  return paths;
}

export const decode = (path: string, sampleRate?: number): Promise<StereoAudio> => decodeAudio(path, { sampleRate });

/** Σ gain·stem, in double precision, as long as the longest (the reference a mix must null against). */
export function weightedSum(parts: Array<{ audio: StereoAudio; gain: number }>): { sampleRate: number; left: Float64Array; right: Float64Array } {
  const frames = Math.max(...parts.map((part) => part.audio.left.length));
  const left = new Float64Array(frames);
  const right = new Float64Array(frames);
  for (const { audio, gain } of parts) {
    for (let i = 0; i < audio.left.length; i++) {
      left[i] += gain * audio.left[i];
      right[i] += gain * audio.right[i];
    }
  }
  return { sampleRate: parts[0].audio.sampleRate, left, right };
}

/** A reference at another rate: written as 32-bit float and resampled by ffmpeg's soxr (28 bits), as an export is. */
export async function resampleReference(reference: { sampleRate: number; left: Float64Array; right: Float64Array }, sampleRate: number, scratch: string): Promise<StereoAudio> {
  const floatWav = join(scratch, `reference-${reference.sampleRate}.wav`);
  const asFloat: StereoAudio = { sampleRate: reference.sampleRate, left: Float32Array.from(reference.left), right: Float32Array.from(reference.right) };
  writeFileSync(floatWav, encodeWav(asFloat, 32));
  const out = join(scratch, `reference-${sampleRate}.wav`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', floatWav, '-af', `aresample=${sampleRate}:resampler=soxr:precision=28`, '-c:a', 'pcm_f32le', out]);
  return decode(out);
}

export interface Residual {
  /** Peak |a − b| over both channels, dBFS. */
  peakDbfs: number;
  /** RMS of a − b, dBFS. */
  rmsDbfs: number;
  /** Frames compared (the shorter of the two). */
  frames: number;
  /** Frame counts of a and b. */
  lengths: [number, number];
}

type Channels = { left: ArrayLike<number>; right: ArrayLike<number> };

/** The difference between two renders, sample by sample from the first frame. */
export function residual(a: Channels, b: Channels): Residual {
  const frames = Math.min(a.left.length, b.left.length);
  let peak = 0;
  let energy = 0;
  for (const [x, y] of [
    [a.left, b.left],
    [a.right, b.right],
  ] as const) {
    for (let i = 0; i < frames; i++) {
      const d = x[i] - y[i];
      const magnitude = Math.abs(d);
      if (magnitude > peak) peak = magnitude;
      energy += d * d;
    }
  }
  const db = (value: number) => (value > 0 ? 20 * Math.log10(value) : -Infinity);
  return { peakDbfs: db(peak), rmsDbfs: db(Math.sqrt(energy / (2 * Math.max(1, frames)))), frames, lengths: [a.left.length, b.left.length] };
}

/** RMS of a render, dBFS (so a residual can be read relative to the signal). */
export function rmsDbfs(audio: Channels): number {
  let energy = 0;
  for (const channel of [audio.left, audio.right]) for (let i = 0; i < channel.length; i++) energy += channel[i] * channel[i];
  const rms = Math.sqrt(energy / Math.max(1, 2 * audio.left.length));
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
}

/** What ffprobe reports about a file's first audio stream and its tags. */
export interface ProbedExport {
  formatName: string;
  codec: string;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  bitsPerRawSample: number;
  bitRate: number;
  sampleFormat: string;
  durationSeconds: number;
  tags: Record<string, string>;
}

export function ffprobe(path: string): ProbedExport {
  const json = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'a:0', path]).toString('utf8'),
  ) as {
    format: { format_name: string; duration?: string; tags?: Record<string, string> };
    streams: Array<{ codec_name: string; sample_rate: string; channels: number; bits_per_sample?: number; bits_per_raw_sample?: string; bit_rate?: string; sample_fmt: string; tags?: Record<string, string> }>;
  };
  const stream = json.streams[0];
  // Tag names as written (ffprobe keeps their case per container); looked up case-insensitively by the specs.
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...json.format.tags, ...stream.tags })) tags[key.toLowerCase()] = value;
  return {
    formatName: json.format.format_name,
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    bitsPerSample: stream.bits_per_sample ?? 0,
    bitsPerRawSample: Number(stream.bits_per_raw_sample ?? 0),
    bitRate: Number(stream.bit_rate ?? 0),
    sampleFormat: stream.sample_fmt,
    durationSeconds: Number(json.format.duration ?? 0),
    tags,
  };
}

/** Whether an mp3's first frame carries LAME's CBR header ("Info") rather than its VBR one ("Xing"). */
export function mp3HeaderTag(bytes: Buffer): 'Info' | 'Xing' | null {
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes('Xing')) return 'Xing';
  if (head.includes('Info')) return 'Info';
  return null;
}
