import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { MediaToolError, probeMedia, type MediaProbe } from '../io/ffmpeg';
import { ENCODERS } from '../mastering/master';
import { absoluteInput, loudnessStats, r128Filters, readR128, type LoudnessStats } from '../mastering/measure';
import { runFfmpeg } from '../mastering/tool';
import { DenoisePass, InterleavedPcm, interleave, NoiseProfilePass, SILENT_LEVEL_DB, type NoiseProfile } from './denoise';

export interface Enhancements {
  /**
   * Spectral denoise: a noise profile (power per frequency bin) learned from the input's quietest frames, removed by
   * a decision-directed Wiener gain per bin; any noise colour, sample-aligned with the input.
   */
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
  /** Where the scratch folder (the denoised float file: ~85 MB for a 4-minute stereo stem) goes; the system's temp folder by default. */
  tmpDir?: string;
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
  /**
   * The learned noise profile's level (RMS per channel, dBFS), when noise reduction ran; −150 when nothing in the
   * input behaved like noise, and the audio was left as it was.
   */
  noiseFloorDb?: number;
  /** The noise profile noise reduction removed: its level, the quiet frames it was learned from, the STFT size. */
  noiseProfile?: { levelDb: number; frames: number; fftSize: number };
  /** The gain loudness normalisation applied (dB, before the limiter), when it ran. */
  gainDb?: number;
  /** The ffmpeg filter chain after the denoiser (speech chain, loudness gain and limiter); empty when none ran. */
  filterChain: string;
}

export const ENHANCE_TARGET_LUFS = -16;
export const ENHANCE_TRUE_PEAK_MAX_DBTP = -1;

/** Voice: rumble off, de-ess, presence lift, a little air, gentle 3:1 compression. */
export const SPEECH_CHAIN = [
  'highpass=f=80:poles=2',
  'deesser=i=0.4:m=0.5:f=0.5:s=o',
  'equalizer=f=200:t=q:w=1:g=-2',
  'equalizer=f=3500:t=q:w=1:g=3',
  'highshelf=f=10000:g=1.5',
  'acompressor=threshold=-24dB:ratio=3:attack=10:release=150:makeup=2:knee=4',
].join(',');

/** Write buffer of the denoised file (the denoiser does not wait for the disk; this only batches the writes). */
const HIGH_WATER_BYTES = 8 << 20;

/** Oversampled (4×) limiter so that the true peak stays under −1 dBTP after the return to the input rate. */
function limiter(sampleRate: number): string {
  const ceiling = Math.pow(10, -1.6 / 20);
  return `aresample=${sampleRate * 4},alimiter=limit=${ceiling.toFixed(4)}:attack=5:release=50:level=0:asc=1,aresample=${sampleRate}`;
}

/**
 * Enhances a voice or music recording, in passes whose progress is shared out by their expected cost, while the
 * input's loudness (ebur128, the result's `before`) is metered beside them:
 *  1. analysis (noise reduction only): a decode streamed through the STFT, whose quietest frames give the noise
 *     profile;
 *  2. denoise (noise reduction only): a second decode through the spectral gain, to a raw 32-bit float file of the
 *     input's length, sample-aligned with it;
 *  3. processing: the speech chain and/or metering (to a staged WAV when loudness follows, else straight to the output);
 *  4. loudness: the gain that brings the processed audio to −16 LUFS, then a 4×-oversampled limiter at −1.6 dBFS,
 *     encoded and metered in the same process (one corrective rerun when the limiter costs more than 0.3 LU).
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
  const denoise = Boolean(enhancements.noiseReduction);
  const speech = Boolean(enhancements.speechEnhancement);
  const normalise = Boolean(enhancements.loudnessNormalization);

  let reported = 0;
  const report = (fraction: number) => {
    const value = Math.max(reported, Math.min(1, fraction));
    if (value > reported || (value === 1 && reported < 1)) {
      reported = value;
      options.onProgress?.(value);
    }
  };
  // Rough relative costs of the passes (as they ran on a 4-minute stem), as shares of the whole.
  const weights = { analysis: 1, denoise: denoise ? 2 : 0, processing: speech || !normalise || denoise ? 1 : 0, loudness: normalise ? 2 : 0 };
  const totalWeight = Object.values(weights).reduce((a, b) => a + b, 0);
  let done = 0;
  const phase = (name: keyof typeof weights, within = 0, width = 1) => {
    const start = (done + weights[name] * within) / totalWeight;
    const span = (weights[name] * width) / totalWeight;
    return (fraction: number) => report(start + span * fraction);
  };
  const finish = (name: keyof typeof weights) => {
    done += weights[name];
    report(done / totalWeight);
  };
  const common = { ffmpeg: options.ffmpeg, signal, durationSeconds };

  const dir = await mkdtemp(join(resolve(options.tmpDir ?? tmpdir()), 'stemdeck-enhance-'));
  // The input's loudness is metered by its own ffmpeg beside the passes that follow (on two cores the meter's 4×
  // oversampled true peak is the longest of them), and awaited where it is needed.
  const metering = runFfmpeg({ ...common, cwd: dir, onProgress: denoise ? undefined : phase('analysis'), args: ['-i', source, '-map', '0:a:0', '-af', r128Filters('before', 'true'), '-f', 'null', '-'] })
    .then(() => readR128(dir, 'before'))
    .then(loudnessStats);
  metering.catch(() => undefined); // awaited below; a failure while another pass runs must not go unhandled meanwhile
  try {
    // 1. The noise profile (with noise reduction), else the loudness meter is this pass.
    let profile: NoiseProfile | undefined;
    if (denoise) {
      const learning = new NoiseProfilePass(channels, sampleRate, Math.round(durationSeconds * sampleRate));
      const pcm = new InterleavedPcm(channels);
      await runFfmpeg({ ...common, onProgress: phase('analysis'), args: ['-i', source, ...rawPcmOutput(channels)], onStdout: (chunk) => learning.push(pcm.push(chunk)) });
      profile = learning.end();
    } else {
      await metering;
    }
    finish('analysis');

    // 2. Denoise, unless nothing in the input behaved like noise (a clean stem passes through untouched).
    let staged = ['-i', source, '-map', '0:a:0'];
    const denoised = profile !== undefined && profile.levelDb > SILENT_LEVEL_DB;
    if (profile && denoised) {
      const raw = join(dir, 'denoised.f32');
      await denoiseToFile(source, raw, profile, channels, { ...common, onProgress: phase('denoise') });
      staged = ['-f', 'f32le', '-ar', String(sampleRate), '-ac', String(channels), '-i', raw];
    }
    finish('denoise');

    // 3. Processing.
    const encoder = [...ENCODERS[format], '-ar', String(sampleRate), '-ac', String(channels)];
    const filters = speech ? [SPEECH_CHAIN] : [];
    let after: LoudnessStats;
    let gainDb: number | undefined;
    let filterChain = filters.join(',');
    if (!normalise) {
      await runFfmpeg({
        ...common, cwd: dir, onProgress: phase('processing'),
        args: [...staged, '-af', [...filters, r128Filters('after', 'true')].join(','), ...encoder, '-f', format, absoluteInput(output)],
      });
      after = loudnessStats(await readR128(dir, 'after'));
      finish('processing');
    } else {
      let processed: LoudnessStats | undefined;
      if (filters.length > 0) {
        const wav = join(dir, 'processed.wav');
        await runFfmpeg({
          ...common, cwd: dir, onProgress: phase('processing'),
          args: [...staged, '-af', `${filterChain},${r128Filters('mid', 'true')}`, '-c:a', 'pcm_f32le', '-rf64', 'auto', wav],
        });
        staged = ['-i', wav];
        processed = loudnessStats(await readR128(dir, 'mid'));
      } else if (denoised) {
        await runFfmpeg({ ...common, cwd: dir, onProgress: phase('processing'), args: [...staged, '-af', r128Filters('mid', 'true'), '-f', 'null', '-'] });
        processed = loudnessStats(await readR128(dir, 'mid'));
      }
      finish('processing');
      processed ??= await metering;
      if (!Number.isFinite(processed.integratedLufs) || processed.integratedLufs < -70) {
        throw new MediaToolError(`Cannot normalise ${input}: it is silent (${processed.integratedLufs} LUFS)`, '');
      }
      // 4. Gain and limiter, with one correction when the limiter pulled the loudness down.
      gainDb = ENHANCE_TARGET_LUFS - processed.integratedLufs;
      for (let attempt = 0; ; attempt++) {
        const chain = `volume=${gainDb.toFixed(3)}dB,${limiter(sampleRate)}`;
        await runFfmpeg({
          ...common, cwd: dir, onProgress: attempt === 0 ? phase('loudness', 0, 0.75) : phase('loudness', 0.75, 0.25),
          args: [...staged, '-af', `${chain},${r128Filters('after', 'true')}`, ...encoder, '-f', format, absoluteInput(output)],
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
    const before = await metering;
    report(1);
    return {
      format, sampleRate, channels, durationSeconds, before, after, applied,
      noiseFloorDb: profile?.levelDb, noiseProfile: profile && { levelDb: profile.levelDb, frames: profile.frames, fftSize: profile.size },
      gainDb, filterChain,
    };
  } finally {
    await metering.catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** ffmpeg output arguments: the decoded audio as interleaved 32-bit float on pipe:1. */
function rawPcmOutput(channels: number): string[] {
  return ['-map', '0:a:0', '-ac', String(channels), '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:1'];
}

/**
 * Decodes `source` once more and streams it through the denoiser into `raw` (interleaved 32-bit float): ffmpeg
 * decodes while the STFT runs, each waiting on the other through the pipe.
 */
async function denoiseToFile(
  source: string, raw: string, profile: NoiseProfile, channels: number,
  run: { ffmpeg?: string; signal?: AbortSignal; durationSeconds: number; onProgress: (fraction: number) => void },
): Promise<void> {
  const pass = new DenoisePass(channels, profile);
  const pcm = new InterleavedPcm(channels);
  const file = createWriteStream(raw, { highWaterMark: HIGH_WATER_BYTES });
  const written = new Promise<void>((resolve, reject) => {
    file.on('finish', resolve);
    file.on('error', reject);
  });
  // Awaited after ffmpeg ends; a write error meanwhile (disk full) must not be an unhandled rejection that ends the process.
  written.catch(() => undefined);
  try {
    await runFfmpeg({ ...run, args: ['-i', source, ...rawPcmOutput(channels)], onStdout: (chunk) => file.write(interleave(pass.push(pcm.push(chunk)))) });
    file.end(interleave(pass.end()));
    await written;
  } finally {
    file.destroy();
  }
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
