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
 * ffmpeg filters that meter loudness under the name `tag` (unique in its graph) for R128Collector: ebur128 with its
 * results as frame metadata, and printers of the values it keeps (integrated, range, true and sample peak; the last
 * frame's are the whole input's). Metadata rather than the closing summary: that one rounds to 0.1 dB.
 * `peaks`: none (loudness only, a third of the cost), true, or true and sample.
 */
export function r128Filters(tag: string, peaks: 'none' | 'true' | 'true+sample'): string {
  const print = (suffix: string, key: string) => `ametadata@${tag}_${suffix}=mode=print:key=lavfi.r128.${key}`;
  return [
    `ebur128@${tag}=peak=${peaks}:metadata=1:framelog=verbose`,
    print('i', 'I'),
    print('lra', 'LRA'),
    ...(peaks !== 'none' ? [print('tp', 'true_peak')] : []),
    ...(peaks === 'true+sample' ? [print('sp', 'sample_peak')] : []),
  ].join(',');
}

type R128Key = 'I' | 'LRA' | 'true_peak' | 'sample_peak';
const R128_LINE = /^\[ametadata@(\w+)_(?:i|lra|tp|sp) @ [^\]]*\] lavfi\.r128\.(I|LRA|true_peak|sample_peak)=(\S+)/;

/** Reads the printers of r128Filters from ffmpeg's log lines, keeping each tag's latest values. */
export class R128Collector {
  private readonly values = new Map<string, Partial<Record<R128Key, number>>>();

  readonly onLine = (line: string): void => {
    const match = R128_LINE.exec(line);
    if (!match) return;
    const [, tag, key, value] = match;
    let entry = this.values.get(tag);
    if (!entry) this.values.set(tag, (entry = {}));
    entry[key as R128Key] = Number(value);
  };

  /** The tag's integrated loudness (−70, the absolute gate, for silence). */
  integrated(tag: string): number {
    const value = this.values.get(tag)?.I;
    if (value === undefined || Number.isNaN(value)) throw new MediaToolError(`ebur128 (${tag}) printed no loudness`, '');
    return value;
  }

  /** The tag's sample peak, linear as ebur128 prints it (3 decimals). */
  samplePeak(tag: string): number {
    const value = this.values.get(tag)?.sample_peak;
    if (value === undefined) throw new MediaToolError(`ebur128 (${tag}) printed no sample peak`, '');
    return value;
  }

  stats(tag: string): LoudnessStats {
    const entry = this.values.get(tag);
    const truePeak = entry?.true_peak;
    if (truePeak === undefined) throw new MediaToolError(`ebur128 (${tag}) printed no true peak`, '');
    return { integratedLufs: this.integrated(tag), loudnessRangeLu: entry?.LRA ?? 0, truePeakDbtp: toDb(truePeak) };
  }
}

export interface MeasureOptions {
  ffmpeg?: string;
  signal?: AbortSignal;
}

/** Integrated loudness, loudness range and true peak of a file's (or URL's) first audio stream: ffmpeg's ebur128. */
export async function measureR128(input: string, options: MeasureOptions = {}): Promise<LoudnessStats> {
  const collector = new R128Collector();
  await runFfmpeg({
    ...options,
    args: ['-i', input, '-map', '0:a:0', '-af', r128Filters('m', 'true'), '-f', 'null', '-'],
    onStderrLine: collector.onLine,
  });
  return collector.stats('m');
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
 * `asetnsamples` cuts 4096-sample frames, `astats` (reset every frame) prints each frame's RMS and `aspectralstats`
 * (one window per frame) each channel's centroid; a second `astats` keeps the whole file's peak and RMS; the decoded
 * samples also stream out as f32 for the clip count.
 */
export async function measureCharacter(input: string, options: MeasureOptions = {}): Promise<CharacterStats> {
  const frames: { rms?: number; centroids: number[] }[] = [];
  let current: { rms?: number; centroids: number[] } | undefined;
  const overall: { peak?: number; rms?: number } = {};
  let inOverall = false;
  const scanner = new SampleScanner();
  const graph =
    `[0:a:0]aformat=sample_fmts=flt,asplit=2[scan][a];` +
    `[a]asetnsamples=n=${WINDOW}:p=0,astats@all=measure_perchannel=none:measure_overall=Peak_level+RMS_level,` +
    `astats@frame=metadata=1:reset=1:measure_perchannel=none:measure_overall=RMS_level,` +
    `aspectralstats=win_size=${WINDOW}:overlap=0,` +
    `ametadata@rms=mode=print:key=lavfi.astats.Overall.RMS_level,` +
    `ametadata@centroid=mode=print:key=lavfi.aspectralstats.1.centroid,` +
    `ametadata@centroid2=mode=print:key=lavfi.aspectralstats.2.centroid,anullsink`;
  await runFfmpeg({
    ...options,
    args: ['-i', input, '-filter_complex', graph, '-map', '[scan]', '-f', 'f32le', 'pipe:1'],
    onStdout: (chunk) => scanner.push(chunk),
    onStderrLine: (line) => {
      let match = /^\[ametadata@rms @ [^\]]*\] lavfi\.astats\.Overall\.RMS_level=(\S+)/.exec(line);
      if (match) {
        current = { rms: Number(match[1]), centroids: [] };
        frames.push(current);
        return;
      }
      match = /^\[ametadata@centroid2? @ [^\]]*\] lavfi\.aspectralstats\.\d\.centroid=(\S+)/.exec(line);
      if (match) {
        current?.centroids.push(Number(match[1]));
        return;
      }
      if (/^\[astats@all @ [^\]]*\] Overall/.test(line)) inOverall = true;
      match = /^\[astats@all @ [^\]]*\] (Peak|RMS) level dB: (\S+)/.exec(line);
      if (match && inOverall) overall[match[1] === 'Peak' ? 'peak' : 'rms'] = Number(match[2]);
    },
  });
  let weighted = 0;
  let weights = 0;
  for (const frame of frames) {
    const centroids = frame.centroids.filter(Number.isFinite);
    if (frame.rms === undefined || !Number.isFinite(frame.rms) || centroids.length === 0) continue;
    const power = 10 ** (frame.rms / 10);
    weighted += power * (centroids.reduce((sum, c) => sum + c, 0) / centroids.length);
    weights += power;
  }
  if (overall.peak === undefined || overall.rms === undefined) {
    throw new MediaToolError(`astats printed no levels for ${input}`, '');
  }
  return {
    spectralCentroidHz: weights > 0 ? weighted / weights : 0,
    crestFactorDb: overall.peak - overall.rms,
    samplePeakDbfs: overall.peak,
    rmsDbfs: overall.rms,
    clippedSamples: scanner.clipped,
  };
}


