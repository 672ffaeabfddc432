import { rm } from 'node:fs/promises';
import { MediaToolError, runFfmpeg } from '@stemdeck/audio';
import type { ObjectStorageAdapter } from '@stemdeck/platform';
import type { AudioExportFormat } from '@stemdeck/proto';
import type { AudioRenderer, AudioTags, RenderProgress, RenderStem } from './audio-renderer';
import { stemGain } from '../../project-data/stem-gain';
import {
  DEFAULT_READ_LIMITS,
  execTool,
  explainReadFailure,
  FAIL_ON_READ_ERROR,
  inputArgs,
  lengthTolerance,
  probeInputArgs,
  runTimeoutSeconds,
  verifyOutputLength,
  type ExpectedLength,
  type ReadLimits,
} from './ffmpeg-inputs';

/** How the renderer reaches stored audio: a short-lived URL that ffmpeg streams with range requests. */
export type StoredAudio = Pick<ObjectStorageAdapter, 'presignedReadUrl'>;

/** Rates an MPEG-1 Layer III stream has (320 kbps exists only there). */
const MP3_RATES = [32_000, 44_100, 48_000];
/** soxr at 28 bits ("very high quality"): its passband ripple and stopband sit far below a 24-bit file's floor. */
const SOXR = 'resampler=soxr:precision=28';

interface FormatSpec {
  /** ffmpeg's muxer name (the output path's extension is not trusted: the caller may write to a temporary name). */
  muxer: string;
  /** The output's rate: a fixed one, or the source's (`null`), moved to 48 kHz when `rates` does not have it. */
  sampleRate: number | null;
  rates?: readonly number[];
  /** The sample format of the one conversion at the end of the float pipeline, and whether it is dithered. */
  sampleFormat: 's16' | 's32' | 'fltp';
  dither: boolean;
  codec: string[];
  tags(tags: AudioTags): string[];
}

const meta = (key: string, value: string | number | null) => (value === null || value === '' ? [] : ['-metadata', `${key}=${value}`]);
/** ID3's TBPM is a whole number; elsewhere the tempo keeps up to two decimals. */
const bpmText = (bpm: number | null) => (bpm === null || !Number.isFinite(bpm) ? null : String(Math.round(bpm * 100) / 100));
const id3Bpm = (bpm: number | null) => (bpm === null || !Number.isFinite(bpm) ? null : Math.round(bpm));

/**
 * WAV's INFO list has a title (INAM) but no tempo or key field: both go into its comment (ICMT) as
 * "BPM 120 · Key A minor", which DAWs and file browsers show.
 */
function wavComment(tags: AudioTags): string | null {
  const parts = [bpmText(tags.bpm) && `BPM ${bpmText(tags.bpm)}`, tags.key && `Key ${tags.key}`].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** ID3v2.3 (the version every player and DAW reads): TIT2 title, TBPM tempo, TKEY key. */
const id3Tags = (tags: AudioTags) => [...meta('title', tags.title), ...meta('TBPM', id3Bpm(tags.bpm)), ...meta('TKEY', tags.key), '-id3v2_version', '3'];

export const FORMAT_SPECS: Readonly<Record<AudioExportFormat, FormatSpec>> = {
  'wav-24-48': {
    muxer: 'wav',
    sampleRate: 48_000,
    sampleFormat: 's32',
    dither: false,
    codec: ['-c:a', 'pcm_s24le', '-rf64', 'auto'],
    tags: (tags) => [...meta('title', tags.title), ...meta('comment', wavComment(tags))],
  },
  'wav-16-44': {
    muxer: 'wav',
    sampleRate: 44_100,
    sampleFormat: 's16',
    dither: true,
    codec: ['-c:a', 'pcm_s16le', '-rf64', 'auto'],
    tags: (tags) => [...meta('title', tags.title), ...meta('comment', wavComment(tags))],
  },
  // AIFF's own chunks hold a name (NAME) only; the tempo and key ride in an ID3 chunk, as Logic and iTunes write them.
  'aiff-24-48': {
    muxer: 'aiff',
    sampleRate: 48_000,
    sampleFormat: 's32',
    dither: false,
    codec: ['-c:a', 'pcm_s24be', '-write_id3v2', '1'],
    tags: id3Tags,
  },
  // Constant 320 kbps (a bitrate without a quality setting is CBR for LAME), fed float so the encoder does the only rounding.
  'mp3-320': {
    muxer: 'mp3',
    sampleRate: null,
    rates: MP3_RATES,
    sampleFormat: 'fltp',
    dither: false,
    codec: ['-c:a', 'libmp3lame', '-b:a', '320k'],
    tags: id3Tags,
  },
  // Lossless at the stems' own rate, 24-bit; Vorbis comments TITLE, BPM and KEY.
  flac: {
    muxer: 'flac',
    sampleRate: null,
    sampleFormat: 's32',
    dither: false,
    codec: ['-c:a', 'flac', '-bits_per_raw_sample', '24'],
    tags: (tags) => [...meta('title', tags.title), ...meta('BPM', bpmText(tags.bpm)), ...meta('KEY', tags.key)],
  },
};

/** The rate a format is written at for a source at `sourceRate`. */
export function outputRate(format: AudioExportFormat, sourceRate: number): number {
  const spec = FORMAT_SPECS[format];
  if (spec.sampleRate !== null) return spec.sampleRate;
  return !spec.rates || spec.rates.includes(sourceRate) ? sourceRate : 48_000;
}

/** The last filter of every graph: the rate change (soxr, skipped when the rate stays) and the one quantisation. */
function finalConversion(format: AudioExportFormat, sourceRate: number): string {
  const spec = FORMAT_SPECS[format];
  // Triangular (TPDF) dither of ±1 LSB, added at the conversion to 16 bits and nowhere else.
  const dither = spec.dither ? ':dither_method=triangular' : '';
  return `aresample=${outputRate(format, sourceRate)}:${SOXR}:osf=${spec.sampleFormat}${dither}`;
}

/** What the renderer needs to know of a stored stem: its first audio stream, and how long it is. */
interface SourceProbe {
  codec: string;
  sampleRate: number;
  channels: number;
  /** Bits per sample of the stored samples (0 when ffprobe cannot tell). */
  bits: number;
  durationSeconds: number;
}

/** Probes a stored stem (its header only), failing on a stalled read or past the run limit. */
export async function probeSource(url: string, ffprobe: string, limits: ReadLimits): Promise<SourceProbe | null> {
  const stdout = await execTool(
    ffprobe,
    [
      '-v', 'error', '-select_streams', 'a:0', '-print_format', 'json',
      '-show_entries', 'stream=codec_name,sample_rate,channels,bits_per_raw_sample,bits_per_sample:format=duration',
      ...probeInputArgs(url, limits),
    ],
    limits.minRunSeconds,
  ).catch((error: MediaToolError) => {
    // A run killed at its limit says so; otherwise ffprobe's last line is the cause.
    if (!error.stderr || /ran past its limit/.test(error.message)) throw error;
    const explained = explainReadFailure(error, limits);
    if (explained !== error) throw explained;
    throw new MediaToolError(`ffprobe cannot read the stem: ${error.stderr.trim().split('\n').pop()}`, error.stderr);
  });
  const parsed = JSON.parse(stdout) as {
    streams?: Array<{ codec_name?: string; sample_rate?: string; channels?: number; bits_per_raw_sample?: string; bits_per_sample?: number }>;
    format?: { duration?: string };
  };
  const stream = parsed.streams?.[0];
  const sampleRate = Number(stream?.sample_rate ?? 0);
  if (!stream || !(sampleRate > 0)) return null;
  return {
    codec: stream.codec_name ?? '',
    sampleRate,
    channels: stream.channels ?? 0,
    bits: Number(stream.bits_per_raw_sample ?? 0) || stream.bits_per_sample || 0,
    durationSeconds: Number(parsed.format?.duration ?? 0) || 0,
  };
}

/** A stereo float stream from any input: a mono one copied to both sides at full level (as the browser plays it). */
function toStereoFloat(probe: SourceProbe): string {
  return probe.channels === 1
    ? 'aformat=sample_fmts=fltp:channel_layouts=mono,pan=stereo|c0=c0|c1=c0'
    : 'aformat=sample_fmts=fltp:channel_layouts=stereo';
}

/**
 * The AudioRenderer on ffmpeg: stored objects are read by ffmpeg itself over presigned URLs (streamed, nothing
 * whole-song in Node), decoded to float, mixed and resampled in float (soxr) and quantised once at the end, in
 * one ffmpeg process per output file. Progress is ffmpeg's `-progress` out_time against the probed duration.
 * A failed render leaves no output file behind.
 */
export class FfmpegAudioRenderer implements AudioRenderer {
  private readonly limits: ReadLimits;

  constructor(
    private readonly storage: StoredAudio,
    private readonly tools: { ffmpeg?: string; ffprobe?: string; limits?: Partial<ReadLimits> } = {},
  ) {
    this.limits = { ...DEFAULT_READ_LIMITS, ...tools.limits };
  }

  async convert(source: { objectKey: string }, format: AudioExportFormat, tags: AudioTags, outPath: string, onProgress?: RenderProgress): Promise<void> {
    const input = await this.open(source.objectKey);
    // A stem stored as 24-bit FLAC already is the flac export: its frames are copied as they are (bit for bit, the
    // same MD5 in its header), only the tags are the export's. A quarter of the time of decoding and encoding again.
    // Only when its header knows its length: a FLAC streamed into storage has none (nor an MD5), and a copy would
    // keep that, so players could not show how long the export is — such a stem is encoded into a complete header.
    if (format === 'flac' && input.probe.codec === 'flac' && input.probe.bits === 24 && input.probe.durationSeconds > 0) {
      await this.render([input.url], null, format, tags, outPath, [input.probe], input.probe.sampleRate, onProgress);
      return;
    }
    const graph = `[0:a:0]aformat=sample_fmts=fltp,${finalConversion(format, input.probe.sampleRate)}[out]`;
    await this.render([input.url], graph, format, tags, outPath, [input.probe], outputRate(format, input.probe.sampleRate), onProgress);
  }

  async mix(stems: readonly RenderStem[], format: AudioExportFormat, tags: AudioTags, outPath: string, onProgress?: RenderProgress): Promise<void> {
    if (stems.length === 0) throw new MediaToolError('Nothing to mix: no stems given', '');
    // The studio's mix law (the same function the project-data envelopes use, held to the browser's by their spec
    // and by the export-mix-render e2e against the studio's own playback graph).
    const anySoloed = stems.some((stem) => stem.soloed);
    let sounding = stems.map((stem) => ({ stem, gain: stemGain(stem, anySoloed) })).filter((entry) => entry.gain > 0);
    // Everything muted: the mix is silence as long as the song (one stem at gain 0 gives the length).
    if (sounding.length === 0) sounding = [{ stem: stems[0], gain: 0 }];
    const inputs = await Promise.all(sounding.map((entry) => this.open(entry.stem.objectKey)));
    // The stems meet at the first one's rate; one that differs is brought to it by soxr before the sum.
    const mixRate = inputs[0].probe.sampleRate;
    const prepared = inputs.map((input, i) => {
      const steps = [toStereoFloat(input.probe)];
      if (input.probe.sampleRate !== mixRate) steps.push(`aresample=${mixRate}:${SOXR}`, 'aformat=sample_fmts=fltp');
      if (sounding[i].gain !== 1) steps.push(`volume=${sounding[i].gain.toPrecision(17)}:precision=float`);
      return `[${i}:a:0]${steps.join(',')}[s${i}]`;
    });
    // A plain sum (normalize=0: amix would otherwise divide by the number of inputs), as long as the longest stem;
    // no limiter or normalisation after it: what goes over full scale clips at the final conversion, as it would
    // at the browser's output.
    const sum = `${inputs.map((_, i) => `[s${i}]`).join('')}amix=inputs=${inputs.length}:normalize=0:duration=longest:dropout_transition=0`;
    const graph = `${prepared.join(';')};${sum},${finalConversion(format, mixRate)}[out]`;
    await this.render(
      inputs.map((input) => input.url),
      graph,
      format,
      tags,
      outPath,
      inputs.map((input) => input.probe),
      outputRate(format, mixRate),
      onProgress,
    );
  }

  private async open(objectKey: string): Promise<{ url: string; probe: SourceProbe }> {
    const url = await this.storage.presignedReadUrl(objectKey);
    const probe = await probeSource(url, this.tools.ffprobe ?? 'ffprobe', this.limits);
    if (!probe) throw new MediaToolError(`${objectKey} has no audio stream`, '');
    return { url, probe };
  }

  /**
   * One ffmpeg: the inputs through `graph` (its output labelled [out]), or the first input's audio copied when null.
   * A read error fails it (`-xerror`), a stalled read times out, the whole run is killed past twice the song's
   * length, and the finished file is held to the length of its longest input; whatever fails leaves no file.
   */
  private async render(
    urls: string[],
    graph: string | null,
    format: AudioExportFormat,
    tags: AudioTags,
    outPath: string,
    sources: SourceProbe[],
    rate: number,
    onProgress?: RenderProgress,
  ): Promise<void> {
    const spec = FORMAT_SPECS[format];
    const expected = expectedLength(sources, format === 'mp3-320', rate);
    const timeoutSeconds = runTimeoutSeconds(expected.seconds, this.limits);
    try {
      await runFfmpeg({
        ffmpeg: this.tools.ffmpeg,
        args: [
          ...FAIL_ON_READ_ERROR,
          ...urls.flatMap((url) => inputArgs(url, this.limits)),
          ...(graph === null ? ['-map', '0:a:0', '-c:a', 'copy'] : ['-filter_complex', graph, '-map', '[out]', ...spec.codec]),
          // The stems' own tags (encoder, anything an upload carried) are not the export's.
          '-map_metadata', '-1',
          ...spec.tags(tags),
          '-f', spec.muxer,
          outPath,
        ],
        durationSeconds: expected.seconds,
        onProgress,
        timeoutSeconds,
      });
      await verifyOutputLength(outPath, expected, this.tools.ffprobe ?? 'ffprobe', this.limits.minRunSeconds);
    } catch (error) {
      await rm(outPath, { force: true });
      throw explainReadFailure(error, this.limits);
    }
  }
}

/**
 * The length an output must have: the longest input's (the mix runs as long as its longest stem). An input whose
 * header has no length (a FLAC streamed into storage) leaves only a lower bound; with none known there is nothing
 * to hold the output to, and `-xerror` alone stands guard.
 */
function expectedLength(sources: SourceProbe[], mp3: boolean, rate: number): ExpectedLength {
  const known = sources.map((source) => source.durationSeconds).filter((seconds) => seconds > 0);
  return {
    seconds: known.length > 0 ? Math.max(...known) : 0,
    exact: known.length === sources.length,
    toleranceSeconds: lengthTolerance(mp3, rate),
  };
}
