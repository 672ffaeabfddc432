import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { MediaToolError, probeMedia, type MediaProbe } from '../io/ffmpeg';
import { ENCODERS } from '../mastering/master';
import { absoluteInput, loudnessStats, r128Filters, readR128, type LoudnessStats } from '../mastering/measure';
import { runFfmpeg } from '../mastering/tool';

export interface Enhancements {
  /** Spectral denoise (afftdn) with its noise floor learned from the input's quietest windows. */
  noiseReduction?: boolean;
  /** −16 LUFS integrated, ≤ −1 dBTP true peak (measured, then applied with an oversampled limiter). */
  loudnessNormalization?: boolean;
  /** High-pass, de-ess, presence EQ and gentle compression for voice. */
  speechEnhancement?: boolean;
}

export interface EnhanceAudioFileOptions {
  input: string;
  /** 24-bit FLAC, or 24-bit WAV when the name ends .wav. */
  output: string;
  enhancements: Enhancements;
  /** 0–1, monotonic over all passes, ending at 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  ffmpeg?: string;
  ffprobe?: string;
}

export interface EnhanceResult {
  format: 'flac' | 'wav';
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  before: LoudnessStats;
  after: LoudnessStats;
  /** The enhancements applied, in the order they ran. */
  applied: Array<keyof Enhancements>;
  /** The noise floor afftdn was set to (dBFS), when noise reduction ran. */
  noiseFloorDb?: number;
  /** The gain loudness normalisation applied (dB, before the limiter), when it ran. */
  gainDb?: number;
  /** The ffmpeg filter chain of the processing pass. */
  filterChain: string;
}

export const ENHANCE_TARGET_LUFS = -16;
export const ENHANCE_TRUE_PEAK_MAX_DBTP = -1;
/** Window over which the input's level is read to find its quietest parts. */
const WINDOW_SECONDS = 0.05;
/** The share of windows (the quietest) whose level sets the noise floor. */
const QUIET_SHARE = 0.1;

/** Voice: rumble off, de-ess, presence lift, a little air, gentle 3:1 compression. */
export const SPEECH_CHAIN = [
  'highpass=f=80:poles=2',
  'deesser=i=0.4:m=0.5:f=0.5:s=o',
  'equalizer=f=200:t=q:w=1:g=-2',
  'equalizer=f=3500:t=q:w=1:g=3',
  'highshelf=f=10000:g=1.5',
  'acompressor=threshold=-24dB:ratio=3:attack=10:release=150:makeup=2:knee=4',
].join(',');

/**
 * afftdn set from the noise floor measured in the quietest windows (nf is clamped to afftdn's −80…−20 dB), its
 * latency (`latencySamples`, see measureDenoiseLatency) trimmed from the start and padded back at the end so the
 * output stays sample-aligned with the input.
 */
export function denoiseFilter(noiseFloorDb: number, latencySamples: number): string {
  const nf = Math.max(-80, Math.min(-20, noiseFloorDb));
  const denoise = `afftdn=nr=40:nf=${nf.toFixed(1)}`;
  return latencySamples > 0 ? `${denoise},atrim=start_sample=${latencySamples},asetpts=PTS-STARTPTS,apad=pad_len=${latencySamples}` : denoise;
}

/**
 * afftdn's delay at a sample rate, in samples: where an impulse comes out (ffmpeg 5.1 delays by half its ~50 ms
 * window, 1102 samples at 44.1 kHz; measured rather than assumed, so another ffmpeg's framing is followed too).
 */
export async function measureDenoiseLatency(sampleRate: number, options: { ffmpeg?: string; signal?: AbortSignal } = {}): Promise<number> {
  const at = Math.round(sampleRate * 0.1);
  const chunks: Buffer[] = [];
  await runFfmpeg({
    ...options,
    args: [
      '-f', 'lavfi', '-i', `aevalsrc='if(eq(n,${at}),1,0)':s=${sampleRate}:d=0.5`,
      '-af', 'afftdn=nr=1:nf=-80', '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:1',
    ],
    onStdout: (chunk) => chunks.push(chunk),
  });
  const bytes = Buffer.concat(chunks);
  let peak = 0;
  let index = at;
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    const magnitude = Math.abs(bytes.readFloatLE(i));
    if (magnitude > peak) {
      peak = magnitude;
      index = i / 4;
    }
  }
  return Math.max(0, index - at);
}

/** Oversampled (4×) limiter so that the true peak stays under −1 dBTP after the return to the input rate. */
function limiter(sampleRate: number): string {
  const ceiling = Math.pow(10, -1.6 / 20);
  return `aresample=${sampleRate * 4},alimiter=limit=${ceiling.toFixed(4)}:attack=5:release=50:level=0:asc=1,aresample=${sampleRate}`;
}

/**
 * Enhances a voice or music recording with ffmpeg, in up to three passes (progress shared across them):
 *  1. analysis: the input's loudness (ebur128) and its level per 50 ms window (astats), whose quietest tenth sets the
 *     denoiser's noise floor;
 *  2. processing: afftdn and/or the speech chain to 32-bit float, metered (ebur128) on the way out;
 *  3. loudness: the gain that brings the processed audio to −16 LUFS, then a 4×-oversampled limiter at −1.6 dBFS,
 *     encoded and metered in the same process (one corrective rerun when the limiter costs more than 0.3 LU).
 * Without loudness normalisation, pass 2 encodes directly.
 */
export async function enhanceAudioFile(options: EnhanceAudioFileOptions): Promise<EnhanceResult> {
  const { input, output, enhancements, signal } = options;
  const applied = (['noiseReduction', 'speechEnhancement', 'loudnessNormalization'] as const).filter((k) => enhancements[k]);
  if (applied.length === 0) throw new TypeError('enhanceAudioFile needs at least one enhancement');
  const format = extname(output).toLowerCase() === '.wav' ? 'wav' : 'flac';
  const probe = await probeInput(input, options.ffprobe);
  const { sampleRate, channels } = probe.audio!;
  const durationSeconds = probe.durationSeconds;
  const source = absoluteInput(input);

  let reported = 0;
  const report = (fraction: number) => {
    const value = Math.max(reported, Math.min(1, fraction));
    if (value > reported || (value === 1 && reported < 1)) {
      reported = value;
      options.onProgress?.(value);
    }
  };
  const normalise = Boolean(enhancements.loudnessNormalization);
  const slices = normalise ? [0.2, 0.4, 0.4] : [0.3, 0.7, 0];
  const phase = (start: number, width: number) => (fraction: number) => report(start + width * fraction);
  const common = { ffmpeg: options.ffmpeg, signal, durationSeconds };

  const dir = await mkdtemp(join(tmpdir(), 'stemdeck-enhance-'));
  try {
    // 1. Analysis.
    const windowSamples = Math.max(1, Math.round(sampleRate * WINDOW_SECONDS));
    const analysis = [
      r128Filters('before', 'true'),
      ...(enhancements.noiseReduction
        ? [`asetnsamples=n=${windowSamples}:p=0`, 'astats=metadata=1:reset=1:measure_perchannel=none:measure_overall=RMS_level', 'ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=levels.txt']
        : []),
    ].join(',');
    await runFfmpeg({ ...common, cwd: dir, onProgress: phase(0, slices[0]), args: ['-i', source, '-map', '0:a:0', '-af', analysis, '-f', 'null', '-'] });
    const before = loudnessStats(await readR128(dir, 'before'));
    let noiseFloorDb: number | undefined;
    const filters: string[] = [];
    if (enhancements.noiseReduction) {
      noiseFloorDb = quietLevel(await readFile(join(dir, 'levels.txt'), 'utf8'));
      filters.push(denoiseFilter(noiseFloorDb, await measureDenoiseLatency(sampleRate, { ffmpeg: options.ffmpeg, signal })));
    }
    if (enhancements.speechEnhancement) filters.push(SPEECH_CHAIN);

    // 2. Processing.
    const encoder = [...ENCODERS[format], '-ar', String(sampleRate), '-ac', String(channels)];
    let after: LoudnessStats;
    let gainDb: number | undefined;
    let filterChain = filters.join(',');
    if (!normalise) {
      await runFfmpeg({
        ...common, cwd: dir, onProgress: phase(slices[0], slices[1]),
        args: ['-i', source, '-map', '0:a:0', '-af', `${filterChain},${r128Filters('after', 'true')}`, ...encoder, '-f', format, absoluteInput(output)],
      });
      after = loudnessStats(await readR128(dir, 'after'));
    } else {
      let staged = source;
      let processed = before;
      if (filters.length > 0) {
        staged = join(dir, 'processed.wav');
        await runFfmpeg({
          ...common, cwd: dir, onProgress: phase(slices[0], slices[1]),
          args: ['-i', source, '-map', '0:a:0', '-af', `${filterChain},${r128Filters('mid', 'true')}`, '-c:a', 'pcm_f32le', '-rf64', 'auto', staged],
        });
        processed = loudnessStats(await readR128(dir, 'mid'));
      }
      report(slices[0] + slices[1]);
      if (!Number.isFinite(processed.integratedLufs) || processed.integratedLufs < -70) {
        throw new MediaToolError(`Cannot normalise ${input}: it is silent (${processed.integratedLufs} LUFS)`, '');
      }
      // 3. Gain and limiter, with one correction when the limiter pulled the loudness down.
      gainDb = ENHANCE_TARGET_LUFS - processed.integratedLufs;
      const start = slices[0] + slices[1];
      for (let attempt = 0; ; attempt++) {
        const chain = `volume=${gainDb.toFixed(3)}dB,${limiter(sampleRate)}`;
        await runFfmpeg({
          ...common, cwd: dir, onProgress: phase(attempt === 0 ? start : start + slices[2] * 0.75, slices[2] * (attempt === 0 ? 0.75 : 0.25)),
          args: ['-i', staged, '-map', '0:a:0', '-af', `${chain},${r128Filters('after', 'true')}`, ...encoder, '-f', format, absoluteInput(output)],
        });
        after = loudnessStats(await readR128(dir, 'after'));
        const miss = ENHANCE_TARGET_LUFS - after.integratedLufs;
        if (attempt === 0 && Math.abs(miss) > 0.3) {
          gainDb += miss;
          continue;
        }
        filterChain = [filterChain, chain].filter(Boolean).join(',');
        break;
      }
    }
    report(1);
    return { format, sampleRate, channels, durationSeconds, before, after, applied, noiseFloorDb, gainDb, filterChain };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The mean level (dB) of the quietest QUIET_SHARE of the windows astats printed. */
export function quietLevel(text: string): number {
  const levels: number[] = [];
  for (const match of text.matchAll(/lavfi\.astats\.Overall\.RMS_level=(\S+)/g)) {
    const value = Number(match[1]);
    if (Number.isFinite(value)) levels.push(value);
  }
  if (levels.length === 0) return -80;
  levels.sort((a, b) => a - b);
  const quiet = levels.slice(0, Math.max(1, Math.floor(levels.length * QUIET_SHARE)));
  return quiet.reduce((sum, value) => sum + value, 0) / quiet.length;
}

async function probeInput(input: string, ffprobe: string | undefined): Promise<MediaProbe> {
  let probe: MediaProbe;
  try {
    probe = await probeMedia(input, { ffprobe });
  } catch (err) {
    const reason = err instanceof MediaToolError ? err.message : String(err);
    throw new MediaToolError(`Cannot enhance ${input}: ffprobe cannot read it (${reason})`, err instanceof MediaToolError ? err.stderr : '');
  }
  if (!probe.audio || !(probe.audio.sampleRate > 0) || !(probe.audio.channels > 0)) {
    throw new MediaToolError(`Cannot enhance ${input}: it has no audio stream`, '');
  }
  return probe;
}
