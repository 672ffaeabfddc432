import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { MediaToolError, probeMedia, type MediaProbe } from '../io/ffmpeg';
import { absoluteInput, loudnessStats, r128Filters, readR128, scanSamples, type LoudnessStats } from './measure';
import {
  isMasteringIntensity,
  isMasteringStyle,
  limiterChain,
  MASTERING_LOUDNESS_TOLERANCE_LU,
  MASTERING_TARGET_LUFS,
  MASTERING_TRUE_PEAK_MAX_DBTP,
  styleCeiling,
  styleChain,
  type MasteringIntensity,
  type MasteringStyle,
} from './styles';
import { startFfmpeg, toDb, type FfmpegProcess, type FfmpegRun } from './tool';

export interface MasterAudioFileOptions {
  /** A file path or a URL ffmpeg reads (http, https, …). */
  input: string;
  /** Where the master goes: 24-bit WAV when the path ends in .wav, 24-bit FLAC otherwise. */
  output: string;
  style: MasteringStyle;
  /** 1 Light (−16 LUFS), 2 Medium (−14 LUFS), 3 Heavy (−11 LUFS). */
  intensity: MasteringIntensity;
  /**
   * Skip the style's tone, width and compression (the chain stage): only bring the input to the intensity's
   * loudness target under the style's limiter and the true-peak ceiling. For audio that is already mastered, such
   * as the sum of parts mastered on their own, which the chain would colour a second time.
   */
  loudnessOnly?: boolean;
  /** 0–1 over all passes, from ffmpeg's progress reports; ends with 1. */
  onProgress?: (fraction: number) => void;
  /** Aborting kills the running ffmpeg processes and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Where the intermediate float WAVs go (two, each 8 bytes per stereo frame); os.tmpdir() by default. */
  tmpDir?: string;
  ffmpeg?: string;
  ffprobe?: string;
}

export interface MasteringResult {
  output: string;
  format: 'flac' | 'wav';
  style: MasteringStyle;
  intensity: MasteringIntensity;
  targetLufs: number;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  /** The input, as ffmpeg's ebur128 (peak=true) reads it. */
  before: LoudnessStats;
  /**
   * The master: ebur128 (peak=true+sample) on the very samples handed to the encoder; clippedSamples counts those at
   * or beyond full scale (CLIP_LEVEL), 0 when the sample peak is below it, else counted in the written file.
   */
  after: LoudnessStats & { samplePeakDbfs: number; clippedSamples: number };
  /** Whether `after` meets the goals: within MASTERING_LOUDNESS_TOLERANCE_LU of the target, true peak ≤ −1 dBTP, no clips. */
  meetsTargets: boolean;
  /** Gain into the limiter, its ceiling (sample peak at 4× the rate, dBFS) and the linear trim after it, dB. */
  limiterGainDb: number;
  limiterCeilingDb: number;
  trimDb: number;
  /** ffmpeg runs it took (the measuring ones included). */
  ffmpegRuns: number;
  /** Wall time per stage (apply: all apply passes), ms. */
  stageMs: { probe: number; decode: number; chain: number; search: number; apply: number };
  elapsedMs: number;
}

/**
 * How far from the target the apply pass may land before it is made again (with a trim): inside the ±0.5 LU goal,
 * with room for ebur128's own reading of the file to differ in the last digit.
 */
const ACCEPT_LU = 0.35;
/** True-peak headroom kept under the maximum when a correction raises the level. */
const TRUE_PEAK_MARGIN_DB = 0.05;
/**
 * Gains into the limiter the search tries (one process each, side by side), above the one that would reach the
 * target with no limiting, dB. The gains that land the target were 0–0.6 dB above it on the evaluation song and
 * on the specs' synthetic material (Heavy the most): the first point is near them, the second gives the slope.
 */
const SEARCH_OFFSETS_DB = [1, 3];
/**
 * The search assumes the limiter idle this far below the no-limiting gain (loudness follows the gain there): the
 * curve's anchor below its first measured point.
 */
const IDLE_BELOW_DB = 6;
/**
 * The oversampled limiter of the master catches peaks between samples that the base-rate one of the search does
 * not, so it reduces a little more (0–0.2 LU on the material above); the search aims this much above the target.
 */
const SEARCH_BIAS_LU = 0.1;
const MAX_APPLY_PASSES = 4;
/** Share of the progress bar per stage, in order (their rough share of the time); the rest is for corrections. */
const STAGE_WEIGHTS = { decode: 0.11, chain: 0.27, search: 0.16, apply: 0.44 };

/**
 * Masters one song with ffmpeg's filters, in passes over float intermediates:
 *
 *   1. decode: the input to a float WAV, with its integrated loudness (which sets the compressor's input gain);
 *   2. chain: the style's tone, width and compression (styleChain) to a second float WAV, with its loudness; beside it
 *      a second process reads the input's loudness, range and true peak (the `before` figures);
 *   3. search: the chain through the limiter (base rate) at two gains, one process each, read by ebur128: the curve
 *      of loudness against drive, on which the gain that lands the target is interpolated;
 *   4. apply: the chain through that gain and the 4×-oversampled limiter (limiterChain), piped to a second process
 *      that encodes the samples and meters the very same ones (ebur128 peak=true+sample; a sample peak at full
 *      scale has the written file scanned for the exact clip count).
 *      A master that misses the target by more than ACCEPT_LU is made again with a linear trim after the limiter
 *      (or, when a rise would cost true-peak headroom it does not have, with more drive).
 *
 * Output: same sample rate and channels as the input, 24-bit FLAC (or WAV for a .wav path).
 */
export async function masterAudioFile(options: MasterAudioFileOptions): Promise<MasteringResult> {
  const started = performance.now();
  const { style, intensity } = options;
  // The processes run in the work folder (their meters write there): paths must not depend on the cwd.
  const input = absoluteInput(options.input);
  const output = resolve(options.output);
  if (!isMasteringStyle(style)) throw new TypeError(`Unknown mastering style ${JSON.stringify(style)}`);
  if (!isMasteringIntensity(intensity)) throw new TypeError(`Mastering intensity must be 1, 2 or 3, not ${JSON.stringify(intensity)}`);
  const targetLufs = MASTERING_TARGET_LUFS[intensity];
  const format = extname(output).toLowerCase() === '.wav' ? 'wav' : 'flac';

  const stageMs = { probe: 0, decode: 0, chain: 0, search: 0, apply: 0 };
  let lap = performance.now();
  const probe = await probeInput(input, options.ffprobe);
  const clock = (stage: keyof typeof stageMs) => {
    const now = performance.now();
    stageMs[stage] += Math.round(now - lap);
    lap = now;
  };
  clock('probe');
  const { sampleRate, channels } = probe.audio!;
  let durationSeconds = probe.durationSeconds;

  options.signal?.throwIfAborted();
  // One controller for every process: a failure or the caller's abort stops the passes running beside it.
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal!.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const progress = new StageProgress(options.onProgress);
  let ffmpegRuns = 0;
  const work = await mkdtemp(join(resolve(options.tmpDir ?? tmpdir()), 'stemdeck-master-'));
  const start = (spec: Omit<FfmpegRun, 'ffmpeg' | 'signal' | 'durationSeconds' | 'cwd'>): FfmpegProcess => {
    ffmpegRuns++;
    const child = startFfmpeg({ ...spec, ffmpeg: options.ffmpeg, signal: controller.signal, durationSeconds, cwd: work });
    const done = child.done.catch((err: unknown) => {
      controller.abort(err);
      throw err;
    });
    return { stdout: child.stdout, done };
  };
  const run = (spec: Omit<FfmpegRun, 'ffmpeg' | 'signal' | 'durationSeconds' | 'cwd'>) => start(spec).done;
  try {
    // 1. decode
    const source = join(work, 'source.wav');
    await run({
      args: [
        '-i', input, '-filter_complex', `[0:a:0]asplit=2[w][m];[m]${r128Filters('source', 'none')}[o]`,
        '-map', '[w]', ...FLOAT_WAV, source, '-map', '[o]', '-f', 'null', '-',
      ],
      onProgress: progress.stage(STAGE_WEIGHTS.decode),
    });
    clock('decode');
    const inputLufs = (await readR128(work, 'source')).integratedLufs;
    if (inputLufs <= -69.9) throw new MediaToolError(`Cannot master ${input}: it is silent (or shorter than 0.4 s)`, '');
    if (!(durationSeconds > 0)) durationSeconds = (await probeMedia(source, { ffprobe: options.ffprobe })).durationSeconds;

    // 2. chain (unless loudness only: then the limiter is fed the decoded input), and beside it the input's own figures
    const chain = options.loudnessOnly ? source : join(work, 'chain.wav');
    const [beforeProgress, chainProgress] = progress.parallel(STAGE_WEIGHTS.chain, options.loudnessOnly ? 1 : 2);
    await settled([
      options.loudnessOnly
        ? Promise.resolve()
        : run({
            args: [
              '-i', source, '-filter_complex',
              `[0:a]${styleChain(style, intensity, { inputLufs, channels })},asplit=2[w][m];[m]${r128Filters('chain', 'none')}[o]`,
              '-map', '[w]', ...FLOAT_WAV, chain, '-map', '[o]', '-f', 'null', '-',
            ],
            onProgress: chainProgress,
          }),
      run({
        args: ['-i', source, '-af', r128Filters('before', 'true'), '-f', 'null', '-'],
        onProgress: beforeProgress,
      }),
    ]);
    clock('chain');
    const before = loudnessStats(await readR128(work, 'before'));
    const chainLufs = options.loudnessOnly ? inputLufs : (await readR128(work, 'chain')).integratedLufs;

    // 3. search: loudness after the limiter against the gain into it
    const unlimitedGain = targetLufs - chainLufs;
    const searchProgress = progress.parallel(STAGE_WEIGHTS.search, SEARCH_OFFSETS_DB.length);
    const measured = await settled(
      SEARCH_OFFSETS_DB.map(async (offset, i) => {
        const gain = unlimitedGain + offset;
        const tag = `try${i}`;
        await run({
          args: ['-i', chain, '-af', `${limiterChain(style, { gainDb: gain, sampleRate, oversample: false })},${r128Filters(tag, 'none')}`, '-f', 'null', '-'],
          onProgress: searchProgress[i],
        });
        return { gain, lufs: (await readR128(work, tag)).integratedLufs };
      }),
    );
    const idle = unlimitedGain - IDLE_BELOW_DB;
    const curve = [{ gain: idle, lufs: targetLufs - IDLE_BELOW_DB }, ...measured];
    clock('search');
    let limiterGainDb = gainForLoudness(curve, targetLufs + SEARCH_BIAS_LU);
    let trimDb = 0;
    let ceilingDb = styleCeiling(style);

    // 4. apply (and correct when it misses)
    let after: MasteringResult['after'] | undefined;
    for (let pass = 0; pass < MAX_APPLY_PASSES; pass++) {
      const share = pass === 0 ? STAGE_WEIGHTS.apply : progress.remaining() * 0.8;
      after = await applyPass({ gain: limiterGainDb, trim: trimDb, ceiling: ceilingDb, onProgress: progress.stage(share) });
      const miss = targetLufs - after.integratedLufs;
      const peakRoom = MASTERING_TRUE_PEAK_MAX_DBTP - TRUE_PEAK_MARGIN_DB - after.truePeakDbtp;
      if (Math.abs(miss) <= ACCEPT_LU && after.truePeakDbtp <= MASTERING_TRUE_PEAK_MAX_DBTP && after.clippedSamples === 0) break;
      if (peakRoom < 0) ceilingDb += peakRoom - 0.1; // over the true-peak maximum: a lower ceiling (louder next pass if need be)
      else if (miss < 0 || miss <= peakRoom) trimDb += miss; // too loud, or too quiet with the headroom to rise
      else limiterGainDb += miss / Math.max(0.2, slopeAt(curve, limiterGainDb)); // too quiet: drive the limiter harder
    }
    clock('apply');
    progress.done();

    return {
      output: options.output,
      format,
      style,
      intensity,
      targetLufs,
      sampleRate,
      channels,
      durationSeconds,
      before,
      after: after!,
      meetsTargets: meetsTargets(after!, targetLufs),
      limiterGainDb: round(limiterGainDb, 2),
      limiterCeilingDb: round(ceilingDb, 2),
      trimDb: round(trimDb, 2),
      ffmpegRuns,
      stageMs,
      elapsedMs: Math.round(performance.now() - started),
    };

    async function applyPass(pass: { gain: number; trim: number; ceiling: number; onProgress: (fraction: number) => void }) {
      // The oversampled limiter in one process; the encoder and the meter in another, fed its samples through a
      // pipe: the two halves cost about the same (1.0 and 1.25 s of CPU for 4 minutes) and run side by side.
      const trim = pass.trim !== 0 ? `,volume=${pass.trim.toFixed(4)}dB` : '';
      const limited = start({
        args: [
          '-i', chain, '-af', `${limiterChain(style, { gainDb: pass.gain, sampleRate, oversample: true, ceilingDb: pass.ceiling })}${trim}`,
          '-c:a', 'pcm_f32le', '-f', 'nut', 'pipe:1',
        ],
        pipeStdout: true,
      });
      const encoded = start({
        args: [
          '-f', 'nut', '-i', 'pipe:0', '-filter_complex', `[0:a]asplit=2[enc][m];[m]${r128Filters('master', 'true+sample')}[o]`,
          '-map', '[enc]', '-ar', String(sampleRate), '-ac', String(channels), ...ENCODERS[format], output,
          '-map', '[o]', '-f', 'null', '-',
        ],
        stdin: limited.stdout!,
        onProgress: pass.onProgress,
      });
      await settled([limited.done, encoded.done]);
      const reading = await readR128(work, 'master');
      const stats = loudnessStats(reading);
      // ebur128 prints the sample peak to 3 decimals: below 0.999 nothing reached full scale; at it, count exactly.
      const samplePeak = reading.samplePeak ?? 1;
      const scan =
        samplePeak >= 0.999
          ? await scanSamples(output, { ffmpeg: options.ffmpeg, signal: controller.signal })
          : { samplePeakDbfs: toDb(samplePeak), clippedSamples: 0 };
      return { ...stats, samplePeakDbfs: round(scan.samplePeakDbfs, 3), clippedSamples: scan.clippedSamples };
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await rm(work, { recursive: true, force: true });
  }
}

export function meetsTargets(after: MasteringResult['after'], targetLufs: number): boolean {
  return (
    Math.abs(after.integratedLufs - targetLufs) <= MASTERING_LOUDNESS_TOLERANCE_LU &&
    after.truePeakDbtp <= MASTERING_TRUE_PEAK_MAX_DBTP &&
    after.clippedSamples === 0
  );
}

const FLOAT_WAV = ['-c:a', 'pcm_f32le', '-rf64', 'auto'];
export const ENCODERS: Record<'flac' | 'wav', string[]> = {
  flac: ['-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24'],
  wav: ['-c:a', 'pcm_s24le'],
};

async function probeInput(input: string, ffprobe: string | undefined): Promise<MediaProbe> {
  let probe: MediaProbe;
  try {
    probe = await probeMedia(input, { ffprobe });
  } catch (err) {
    const reason = err instanceof MediaToolError ? err.message : String(err);
    throw new MediaToolError(`Cannot master ${input}: ffprobe cannot read it (${reason})`, err instanceof MediaToolError ? err.stderr : '');
  }
  if (!probe.audio || !(probe.audio.sampleRate > 0) || !(probe.audio.channels > 0)) {
    throw new MediaToolError(`Cannot master ${input}: it has no audio stream`, '');
  }
  return probe;
}

interface CurvePoint {
  gain: number;
  lufs: number;
}

/**
 * The gain into the limiter that gives `lufs`, on the measured curve (ascending gains): linear interpolation
 * between the points around it; below the first point the limiter hardly works, so loudness follows the gain 1:1;
 * past the last, the last segment's slope is extended.
 */
export function gainForLoudness(curve: CurvePoint[], lufs: number): number {
  const first = curve[0];
  if (lufs <= first.lufs) return first.gain + (lufs - first.lufs);
  for (let i = 1; i < curve.length; i++) {
    const a = curve[i - 1];
    const b = curve[i];
    if (lufs <= b.lufs) return b.lufs > a.lufs ? a.gain + ((lufs - a.lufs) * (b.gain - a.gain)) / (b.lufs - a.lufs) : b.gain;
  }
  const last = curve[curve.length - 1];
  const slope = slopeAt(curve, last.gain);
  return last.gain + Math.min(12, (lufs - last.lufs) / Math.max(0.2, slope));
}

/** dLUFS/dgain of the curve's segment around `gain` (1 where the limiter is idle). */
function slopeAt(curve: CurvePoint[], gain: number): number {
  let i = 1;
  while (i < curve.length - 1 && curve[i].gain < gain) i++;
  const a = curve[i - 1];
  const b = curve[i];
  return b.gain > a.gain ? (b.lufs - a.lufs) / (b.gain - a.gain) : 1;
}

/**
 * Promise.all that waits for every process to end (a failure aborts the others, which then exit) before it rejects
 * with the first failure: nothing is left writing into the work folder when it is removed.
 */
async function settled<T>(promises: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/**
 * The progress bar over the passes: each stage gets a share, its processes report 0–1 within it, and what is
 * reported never goes back (a correction pass gets a part of what is left).
 */
class StageProgress {
  private base = 0;
  private last = 0;

  constructor(private readonly report?: (fraction: number) => void) {}

  stage(share: number): (fraction: number) => void {
    const start = this.base;
    this.base = Math.min(1, start + share);
    return (fraction) => this.emit(start + share * fraction);
  }

  /** A stage run by `count` processes side by side: its progress is their mean. */
  parallel(share: number, count: number): ((fraction: number) => void)[] {
    const report = this.stage(share);
    const fractions = new Array<number>(count).fill(0);
    return fractions.map((_, i) => (fraction: number) => {
      fractions[i] = fraction;
      report(fractions.reduce((sum, f) => sum + f, 0) / count);
    });
  }

  remaining(): number {
    return Math.max(0, 1 - this.base);
  }

  done(): void {
    this.emit(1);
  }

  private emit(value: number): void {
    const clamped = Math.min(1, value);
    if (clamped <= this.last) return;
    this.last = clamped;
    this.report?.(clamped);
  }
}
