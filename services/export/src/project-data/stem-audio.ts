import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { MediaToolError, startFfmpeg } from '@stemdeck/audio';
import type { ObjectStorageAdapter } from '@stemdeck/platform';
import { probeSource } from '../exports/audio/ffmpeg-audio-renderer';
import {
  DEFAULT_READ_LIMITS,
  explainReadFailure,
  FAIL_ON_READ_ERROR,
  inputArgs,
  lengthTolerance,
  runTimeoutSeconds,
  verifyOutputLength,
  type ReadLimits,
} from '../exports/audio/ffmpeg-inputs';
import { FrameMeter } from './envelopes';

/** Stored stems as project-data exports need them: measured frame by frame, or as WAV clips. */
export interface StemAudio {
  /** Mean square of the stem's mono downmix per 1/fps second, decoded as a stream (never the whole stem in memory). */
  framePower(objectKey: string, fps: number, progress?: { expectedSeconds: number; onProgress: (fraction: number) => void }): Promise<Float64Array>;
  /** The stem as 16-bit PCM WAV at its own sample rate (TPDF dither), titled `title`. */
  writeWav(objectKey: string, outPath: string, title: string): Promise<void>;
}

/** Presigned reads let ffmpeg/ffprobe stream the object over HTTP with range requests. */
const READ_URL_SECONDS = 60 * 60;

/**
 * StemAudio with ffmpeg reading the objects straight from object storage. A read cut short or stalled fails the
 * export (`-xerror`, a read timeout, a run limit of twice the stem's length), and what was decoded or written is
 * held to the length in the stem's header, so a dropped connection never yields a shorter envelope or clip.
 */
export class FfmpegStemAudio implements StemAudio {
  private readonly limits: ReadLimits;

  constructor(
    private readonly storage: Pick<ObjectStorageAdapter, 'presignedReadUrl'>,
    private readonly tools: { ffmpeg?: string; ffprobe?: string; limits?: Partial<ReadLimits> } = {},
  ) {
    this.limits = { ...DEFAULT_READ_LIMITS, ...tools.limits };
  }

  async framePower(objectKey: string, fps: number, progress?: { expectedSeconds: number; onProgress: (fraction: number) => void }): Promise<Float64Array> {
    const { url, probe } = await this.open(objectKey);
    const meter = new FrameMeter(probe.sampleRate, fps);
    // A FLAC streamed into storage may carry no length; the project's duration stands in for it (for progress only).
    const expected = (probe.durationSeconds || progress?.expectedSeconds || 0) * probe.sampleRate;
    // Mono is decoded as mono and heard on both sides: ffmpeg's mono-to-stereo upmix would lower it by 3 dB.
    const channels = probe.channels === 1 ? 1 : 2;
    const stop = new AbortController();
    const run = startFfmpeg({
      ffmpeg: this.tools.ffmpeg,
      args: [
        ...FAIL_ON_READ_ERROR, '-v', 'error', ...inputArgs(url, this.limits),
        '-map', '0:a:0', '-vn', '-ac', String(channels), '-f', 'f32le', '-acodec', 'pcm_f32le', 'pipe:1',
      ],
      pipeStdout: true,
      timeoutSeconds: runTimeoutSeconds(probe.durationSeconds || progress?.expectedSeconds || 0, this.limits),
      signal: stop.signal,
    });
    // Awaited below, once the output is read; handled here so a failure while the pipe drains is not "unhandled".
    run.done.catch(() => undefined);
    let decoded = 0;
    let readToEnd = false;
    try {
      for await (const { left, right } of stereoFrames(run.stdout!, channels)) {
        meter.push(left, right);
        decoded += left.length;
        if (expected > 0) progress?.onProgress(Math.min(1, decoded / expected));
      }
      readToEnd = true;
    } finally {
      if (!readToEnd) stop.abort();
    }
    // A failed run rejects here with ffmpeg's cause (a read error, the time limit) before any length check.
    await run.done.catch((error: unknown) => {
      throw explainReadFailure(error, this.limits);
    });
    if (probe.durationSeconds > 0) {
      const seconds = decoded / probe.sampleRate;
      if (Math.abs(seconds - probe.durationSeconds) > lengthTolerance(false, probe.sampleRate)) {
        throw new MediaToolError(
          `${objectKey} decoded to ${seconds.toFixed(3)} s where its header says ${probe.durationSeconds.toFixed(3)} s: it was not read whole`,
          '',
        );
      }
    }
    progress?.onProgress(1);
    return meter.finish();
  }

  async writeWav(objectKey: string, outPath: string, title: string): Promise<void> {
    const { url, probe } = await this.open(objectKey);
    try {
      await startFfmpeg({
        ffmpeg: this.tools.ffmpeg,
        args: [
          ...FAIL_ON_READ_ERROR, '-v', 'error', ...inputArgs(url, this.limits), '-map', '0:a:0', '-vn', '-map_metadata', '-1',
          '-af', 'aresample=osf=s16:dither_method=triangular', '-c:a', 'pcm_s16le', '-metadata', `title=${title}`, '-f', 'wav', outPath,
        ],
        timeoutSeconds: runTimeoutSeconds(probe.durationSeconds, this.limits),
      }).done;
      await verifyOutputLength(
        outPath,
        { seconds: probe.durationSeconds, exact: true, toleranceSeconds: lengthTolerance(false, probe.sampleRate) },
        this.tools.ffprobe ?? 'ffprobe',
        this.limits.minRunSeconds,
      );
    } catch (error) {
      await rm(outPath, { force: true });
      throw explainReadFailure(error, this.limits);
    }
  }

  private async open(objectKey: string) {
    const url = await this.storage.presignedReadUrl(objectKey, READ_URL_SECONDS);
    const probe = await probeSource(url, this.tools.ffprobe ?? 'ffprobe', this.limits);
    if (!probe) throw new MediaToolError(`No audio stream in ${objectKey}`, '');
    return { url, probe };
  }
}

/** Interleaved f32le from ffmpeg as planar stereo (a mono channel on both sides), whole frames only. */
async function* stereoFrames(stdout: Readable, channels: 1 | 2): AsyncGenerator<{ left: Float32Array; right: Float32Array }> {
  const frameBytes = 4 * channels;
  let carry = Buffer.alloc(0);
  for await (const data of stdout as AsyncIterable<Buffer>) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, data]) : data;
    const usable = bytes.length - (bytes.length % frameBytes);
    carry = Buffer.from(bytes.subarray(usable));
    // Copied into an aligned buffer: a pipe chunk may start at an offset Float32Array cannot view.
    const samples = new Float32Array(usable / 4);
    new Uint8Array(samples.buffer).set(bytes.subarray(0, usable));
    const frames = usable / frameBytes;
    if (channels === 1) {
      yield { left: samples, right: samples };
      continue;
    }
    const left = new Float32Array(frames);
    const right = new Float32Array(frames);
    for (let i = 0; i < frames; i++) {
      left[i] = samples[2 * i]!;
      right[i] = samples[2 * i + 1]!;
    }
    yield { left, right };
  }
}
