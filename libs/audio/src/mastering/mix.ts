import { extname } from 'node:path';
import { MediaToolError, probeMedia, type MediaProbe } from '../io/ffmpeg';
import { runFfmpeg } from './tool';

export interface MixStem {
  /** A file path or a URL ffmpeg reads. */
  input: string;
  /** Gain applied to this stem, dB (0 by default). */
  gainDb?: number;
  /** A muted stem is left out of the sum. */
  mute?: boolean;
}

export interface MixAudioFilesOptions {
  stems: MixStem[];
  /**
   * Where the sum goes: a .wav path gets 32-bit float (a sum may go over full scale; float keeps it for the master
   * to bring down), .flac 24-bit (clipped at full scale), anything else ffmpeg's default codec for it.
   */
  output: string;
  /** The sum's rate; the first unmuted stem's by default (the others are resampled to it). */
  sampleRate?: number;
  /** 0–1 from ffmpeg's progress reports. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  ffmpeg?: string;
  ffprobe?: string;
}

export interface MixResult {
  output: string;
  sampleRate: number;
  /** 2 if any stem has two or more channels (those with more are downmixed), 1 if all are mono. */
  channels: 1 | 2;
  durationSeconds: number;
  /** Stems summed (muted ones excluded). */
  mixed: number;
}

/**
 * Sums stems into one file with ffmpeg: each stem converted to float at the common rate and layout (a mono stem
 * copied to both channels when the sum is stereo, at full level), its gain applied by `volume`, and all of them
 * added by `amix` with normalize=0 (a plain sum: amix would otherwise divide by the number of inputs). The sum is as
 * long as the longest stem. Meant for "master the current mix" (the four stems at their mixer settings) and for
 * stem groups (a subset, e.g. everything but the vocals).
 */
export async function mixAudioFiles(options: MixAudioFilesOptions): Promise<MixResult> {
  const stems = options.stems.filter((stem) => !stem.mute);
  if (stems.length === 0) throw new MediaToolError('Nothing to mix: every stem is muted (or none was given)', '');
  const probes = await Promise.all(stems.map((stem) => probeStem(stem.input, options.ffprobe)));
  const sampleRate = options.sampleRate ?? probes[0].audio!.sampleRate;
  const channels: 1 | 2 = probes.some((probe) => probe.audio!.channels >= 2) ? 2 : 1;
  const durationSeconds = Math.max(...probes.map((probe) => probe.durationSeconds));

  const prepared = stems.map((stem, i) => {
    const gain = stem.gainDb ?? 0;
    if (!Number.isFinite(gain)) throw new TypeError(`Stem ${stem.input}: gain must be a finite number of dB`);
    const layout =
      channels === 2 && probes[i].audio!.channels === 1
        ? 'aformat=channel_layouts=mono,pan=stereo|c0=c0|c1=c0'
        : `aformat=channel_layouts=${channels === 2 ? 'stereo' : 'mono'}`;
    return `[${i}:a:0]aresample=${sampleRate},aformat=sample_fmts=fltp,${layout},volume=${gain}dB[s${i}]`;
  });
  const graph =
    `${prepared.join(';')};` +
    `${stems.map((_, i) => `[s${i}]`).join('')}amix=inputs=${stems.length}:normalize=0:duration=longest:dropout_transition=0[mix]`;
  const extension = extname(options.output).toLowerCase();
  const codec =
    extension === '.wav'
      ? ['-c:a', 'pcm_f32le', '-rf64', 'auto']
      : extension === '.flac'
        ? ['-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24']
        : [];
  await runFfmpeg({
    args: [...stems.flatMap((stem) => ['-i', stem.input]), '-filter_complex', graph, '-map', '[mix]', ...codec, options.output],
    durationSeconds,
    onProgress: options.onProgress,
    signal: options.signal,
    ffmpeg: options.ffmpeg,
  });
  return { output: options.output, sampleRate, channels, durationSeconds, mixed: stems.length };
}

async function probeStem(input: string, ffprobe: string | undefined): Promise<MediaProbe> {
  let probe: MediaProbe;
  try {
    probe = await probeMedia(input, { ffprobe });
  } catch (err) {
    const reason = err instanceof MediaToolError ? err.message : String(err);
    throw new MediaToolError(`Cannot mix ${input}: ffprobe cannot read it (${reason})`, err instanceof MediaToolError ? err.stderr : '');
  }
  if (!probe.audio || !(probe.audio.sampleRate > 0)) throw new MediaToolError(`Cannot mix ${input}: it has no audio stream`, '');
  return probe;
}
