import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MediaToolError } from '../io/ffmpeg';
import { runFfmpeg, SampleScanner, toDb } from './tool';

/** What ffmpeg's EBU R128 meter (`ebur128` with `peak=true`) reads. */
export interface LoudnessStats {
  integratedLufs: number;
  /** EBU Tech 3342 loudness range. */
  loudnessRangeLu: number;
  /** Maximum true peak over the channels (4× oversampled), dBTP. */
  truePeakDbtp: number;
}

/**
 * ffmpeg filters that meter loudness under the name `tag` (a word, unique in its folder): ebur128 with its results as
 * frame metadata, and a printer writing them to `<tag>.r128.txt` in the process's working folder (readR128 reads the
 * last frame's, which are the whole input's). Metadata rather than the closing summary, which rounds to 0.1 dB; a
 * file rather than the log, which would wake the parent for every line (tens of thousands for a song).
 * `peaks`: none (loudness only, a third of the cost), true, or true and sample.
 */
export function r128Filters(tag: string, peaks: 'none' | 'true' | 'true+sample'): string {
  if (!/^\w+$/.test(tag)) throw new TypeError(`r128 tag must be a word: ${tag}`);
  return `ebur128@${tag}=peak=${peaks}:metadata=1:framelog=verbose,ametadata@${tag}=mode=print:file=${tag}.r128.txt`;
}

/** What one r128Filters meter read: loudness, range, and (linear) peaks when asked for. */
export interface R128Reading {
  integratedLufs: number;
  loudnessRangeLu: number;
  truePeak?: number;
  samplePeak?: number;
}

/** Reads the last frame of the meter `tag`'s file in `dir` (see r128Filters). */
export async function readR128(dir: string, tag: string): Promise<R128Reading> {
  const values = lastFrame(await readFile(join(dir, `${tag}.r128.txt`), 'utf8'));
  const integrated = values.get('lavfi.r128.I');
  if (integrated === undefined || Number.isNaN(integrated)) throw new MediaToolError(`ebur128 (${tag}) wrote no loudness`, '');
  return {
    integratedLufs: integrated,
    loudnessRangeLu: values.get('lavfi.r128.LRA') ?? 0,
    truePeak: values.get('lavfi.r128.true_peak'),
    samplePeak: values.get('lavfi.r128.sample_peak'),
  };
}

/** The reading as LoudnessStats (the meter must have measured the true peak). */
export function loudnessStats(reading: R128Reading): LoudnessStats {
  if (reading.truePeak === undefined) throw new MediaToolError('ebur128 wrote no true peak', '');
  return { integratedLufs: reading.integratedLufs, loudnessRangeLu: reading.loudnessRangeLu, truePeakDbtp: toDb(reading.truePeak) };
}

/** key=value lines of an ametadata print file, per frame ("frame:N pts:… pts_time:…" opens each). */
function parseFrames(text: string): Map<string, number>[] {
  const frames: Map<string, number>[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('frame:')) frames.push(new Map());
    else {
      const at = line.indexOf('=');
      if (at > 0 && frames.length > 0) frames[frames.length - 1].set(line.slice(0, at), Number(line.slice(at + 1)));
    }
  }
  return frames;
}

function lastFrame(text: string): Map<string, number> {
  return parseFrames(text.slice(text.lastIndexOf('frame:'))).pop() ?? new Map();
}

export interface MeasureOptions {
  ffmpeg?: string;
  signal?: AbortSignal;
}

/** Runs `measure` with a scratch folder for the metadata files, removed afterwards. */
async function withScratch<T>(measure: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'stemdeck-measure-'));
  try {
    return await measure(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An input path made absolute (the measuring processes run in a scratch folder); URLs are left as they are. */
export function absoluteInput(input: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(input) ? input : resolve(input);
}

/** Integrated loudness, loudness range and true peak of a file's (or URL's) first audio stream: ffmpeg's ebur128. */
export async function measureR128(input: string, options: MeasureOptions = {}): Promise<LoudnessStats> {
  return withScratch(async (dir) => {
    await runFfmpeg({
      ...options,
      cwd: dir,
      args: ['-i', absoluteInput(input), '-map', '0:a:0', '-af', r128Filters('m', 'true'), '-f', 'null', '-'],
    });
    return loudnessStats(await readR128(dir, 'm'));
  });
}

/** Sample peak and the samples at or beyond full scale (CLIP_LEVEL) of a file's first audio stream, decoded to float. */
export async function scanSamples(input: string, options: MeasureOptions = {}): Promise<{ samplePeakDbfs: number; clippedSamples: number }> {
  const scanner = new SampleScanner();
  await runFfmpeg({
    ...options,
    args: ['-i', input, '-map', '0:a:0', '-c:a', 'pcm_f32le', '-f', 'f32le', 'pipe:1'],
    onStdout: (chunk) => scanner.push(chunk),
  });
  return { samplePeakDbfs: scanner.peakDbfs, clippedSamples: scanner.clipped };
}

/** The tone and dynamics figures that tell the mastering styles apart. */
export interface CharacterStats {
  /**
   * Spectral centroid (Hz): ffmpeg's `aspectralstats` per 4096-sample window and channel, averaged over the channels
   * and then over the windows weighted by each window's power (so it is the centroid of the music, not of the
   * near-silent gaps).
   */
  spectralCentroidHz: number;
  /** Peak-to-RMS ratio over the whole file, dB (`astats`: sample peak level − RMS level). */
  crestFactorDb: number;
  samplePeakDbfs: number;
  rmsDbfs: number;
  /** Samples at or beyond full scale (CLIP_LEVEL), counted on the decoded float samples. */
  clippedSamples: number;
}

const WINDOW = 4096;

/**
 * Spectral centroid, crest factor, sample peak and clipped samples of a file's first audio stream, in one ffmpeg run:
 * `asetnsamples` cuts 4096-sample frames, `astats` (reset every frame) gives each frame's RMS and `aspectralstats`
 * (one window per frame) each channel's centroid, printed to files in a scratch folder; a second `astats` keeps the
 * whole file's peak and RMS; the decoded samples also stream out as f32 for the clip count.
 */
export async function measureCharacter(input: string, options: MeasureOptions = {}): Promise<CharacterStats> {
  return withScratch(async (dir) => {
    const overall: { peak?: number; rms?: number } = {};
    let inOverall = false;
    const scanner = new SampleScanner();
    const graph =
      `[0:a:0]aformat=sample_fmts=flt,asplit=2[scan][a];` +
      `[a]asetnsamples=n=${WINDOW}:p=0,astats@all=measure_perchannel=none:measure_overall=Peak_level+RMS_level,` +
      `astats@frame=metadata=1:reset=1:measure_perchannel=none:measure_overall=RMS_level,` +
      `aspectralstats=win_size=${WINDOW}:overlap=0,` +
      `ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=rms.txt,` +
      `ametadata=mode=print:key=lavfi.aspectralstats.1.centroid:file=centroid1.txt,` +
      `ametadata=mode=print:key=lavfi.aspectralstats.2.centroid:file=centroid2.txt,anullsink`;
    await runFfmpeg({
      ...options,
      cwd: dir,
      args: ['-i', absoluteInput(input), '-filter_complex', graph, '-map', '[scan]', '-f', 'f32le', 'pipe:1'],
      onStdout: (chunk) => scanner.push(chunk),
      onStderrLine: (line) => {
        if (/^\[astats@all @ [^\]]*\] Overall/.test(line)) inOverall = true;
        const match = /^\[astats@all @ [^\]]*\] (Peak|RMS) level dB: (\S+)/.exec(line);
        if (match && inOverall) overall[match[1] === 'Peak' ? 'peak' : 'rms'] = Number(match[2]);
      },
    });
    const [rms, left, right] = await Promise.all(
      ['rms.txt', 'centroid1.txt', 'centroid2.txt'].map(async (name) => parseFrames(await readFile(join(dir, name), 'utf8'))),
    );
    let weighted = 0;
    let weights = 0;
    rms.forEach((frame, i) => {
      const level = frame.get('lavfi.astats.Overall.RMS_level');
      const centroids = [left[i]?.get('lavfi.aspectralstats.1.centroid'), right[i]?.get('lavfi.aspectralstats.2.centroid')].filter(
        (c): c is number => c !== undefined && Number.isFinite(c),
      );
      if (level === undefined || !Number.isFinite(level) || centroids.length === 0) return;
      const power = 10 ** (level / 10);
      weighted += power * (centroids.reduce((sum, c) => sum + c, 0) / centroids.length);
      weights += power;
    });
    if (overall.peak === undefined || overall.rms === undefined) throw new MediaToolError(`astats printed no levels for ${input}`, '');
    return {
      spectralCentroidHz: weights > 0 ? weighted / weights : 0,
      crestFactorDb: overall.peak - overall.rms,
      samplePeakDbfs: overall.peak,
      rmsDbfs: overall.rms,
      clippedSamples: scanner.clipped,
    };
  });
}


