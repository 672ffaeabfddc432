import { spawn } from 'node:child_process';
import type { StereoAudio } from '../types';

/** What ffprobe says about a file or URL: enough to decide audio vs video vs not media. */
export interface MediaProbe {
  formatName: string;
  durationSeconds: number;
  hasVideo: boolean;
  audio?: { codec: string; sampleRate: number; channels: number };
  video?: { codec: string; width: number; height: number };
}

export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    sample_rate?: string;
    channels?: number;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }>;
}

/** Probes by content (ffprobe reads the bytes; the client's media type is never trusted). */
export async function probeMedia(input: string, options: { ffprobe?: string } = {}): Promise<MediaProbe> {
  const { stdout } = await runTool(options.ffprobe ?? 'ffprobe', [
    '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input,
  ]);
  const parsed = JSON.parse(stdout.toString('utf8')) as ProbeJson;
  const streams = parsed.streams ?? [];
  const audioStream = streams.find((s) => s.codec_type === 'audio');
  // Cover art inside an mp3/m4a is a "video" stream with attached_pic; it does not make the file a video.
  const videoStream = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  return {
    formatName: parsed.format?.format_name ?? '',
    durationSeconds: Number(parsed.format?.duration ?? 0) || 0,
    hasVideo: Boolean(videoStream),
    audio: audioStream && {
      codec: audioStream.codec_name ?? '',
      sampleRate: Number(audioStream.sample_rate ?? 0),
      channels: audioStream.channels ?? 0,
    },
    video: videoStream && {
      codec: videoStream.codec_name ?? '',
      width: videoStream.width ?? 0,
      height: videoStream.height ?? 0,
    },
  };
}

/**
 * How a decode runs: the rate (the source's unless one is asked for), the channels ffmpeg writes and its
 * arguments (interleaved little-endian float PCM on stdout). Mono is decoded as mono, for the caller to
 * duplicate: ffmpeg's mono-to-stereo upmix lowers the level by 3 dB.
 */
export async function pcmDecodePlan(
  input: string,
  options: { sampleRate?: number; probe?: MediaProbe },
): Promise<{ probe: MediaProbe; sampleRate: number; channels: 1 | 2; args: string[] }> {
  // A caller that already probed the input passes its answer instead of running ffprobe twice.
  const probe = options.probe ?? (await probeMedia(input));
  const sampleRate = options.sampleRate ?? probe.audio?.sampleRate;
  if (!probe.audio || !sampleRate) throw new MediaToolError('No audio stream', '');
  const channels = probe.audio.channels === 1 ? 1 : 2;
  const args = [
    '-nostdin', '-v', 'error', '-i', input, '-map', '0:a:0', '-vn', '-ac', String(channels), '-ar', String(sampleRate),
    '-f', 'f32le', '-acodec', 'pcm_f32le', 'pipe:1',
  ];
  return { probe, sampleRate, channels, args };
}

/**
 * Decodes the first audio stream of any file or URL ffmpeg reads into planar float stereo.
 * Keeps the source sample rate unless one is asked for; mono is duplicated, more channels are downmixed by ffmpeg.
 *
 * The samples are split into their channels as ffmpeg writes them (the decode and this copy run side by
 * side), straight into arrays sized from the probed duration, so the decoded file is held once, not as
 * pipe chunks, their concatenation and then the channels. `shared` puts the channels on SharedArrayBuffers
 * (what worker threads read without a copy).
 */
export async function decodeAudio(
  input: string,
  options: { sampleRate?: number; ffmpeg?: string; probe?: MediaProbe; shared?: boolean } = {},
): Promise<StereoAudio> {
  const { probe, sampleRate, channels, args } = await pcmDecodePlan(input, options);
  // A container can claim any duration: the guess sizes the arrays only up to 20 minutes, past that they grow.
  const expected = Math.ceil(Math.min(probe.durationSeconds, MAX_PREALLOCATED_SECONDS) * sampleRate) + sampleRate;
  const planar = new PlanarCollector(channels, expected, options.shared ?? false);
  await runTool(options.ffmpeg ?? 'ffmpeg', args, (chunk) => planar.push(chunk));
  return { sampleRate, ...planar.finish() };
}

/** The longest duration the probe's word is taken for when sizing a decode's arrays. */
const MAX_PREALLOCATED_SECONDS = 20 * 60;

/** Bytes of interleaved float PCM copied into aligned memory at a time (pipe chunks are 8–64 kB). */
const SCRATCH_BYTES = 1 << 16;

/**
 * Interleaved little-endian float PCM in, planar channels out. Chunks arrive at any byte offset and may end
 * mid-frame: each is copied into an aligned scratch block (a memcpy) and the whole frames there are split
 * into the channels; a partial frame waits at the block's start for the next chunk.
 */
export class PlanarCollector {
  private left: Float32Array;
  private right: Float32Array;
  private frames = 0;
  private readonly scratch = new Float32Array(SCRATCH_BYTES / 4);
  private readonly scratchBytes = new Uint8Array(this.scratch.buffer);
  private pendingBytes = 0;

  constructor(
    private readonly channels: 1 | 2,
    expectedFrames: number,
    private readonly shared: boolean,
  ) {
    this.left = this.allocate(Math.max(expectedFrames, 1));
    this.right = channels === 2 ? this.allocate(this.left.length) : this.left;
  }

  push(chunk: Buffer): void {
    const frameBytes = 4 * this.channels;
    for (let offset = 0; offset < chunk.length; ) {
      const copied = Math.min(chunk.length - offset, SCRATCH_BYTES - this.pendingBytes);
      this.scratchBytes.set(chunk.subarray(offset, offset + copied), this.pendingBytes);
      offset += copied;
      const bytes = this.pendingBytes + copied;
      const whole = bytes - (bytes % frameBytes);
      this.split(whole / frameBytes);
      this.scratchBytes.copyWithin(0, whole, bytes);
      this.pendingBytes = bytes - whole;
    }
  }

  /** The channels, exactly as long as what was decoded (a trailing partial frame is dropped). */
  finish(): { left: Float32Array; right: Float32Array } {
    const { frames } = this;
    // Trim when the probe's duration (an estimate for some formats) overshot by more than a little.
    const fit = (channel: Float32Array) =>
      frames >= channel.length * 0.9 ? channel.subarray(0, frames) : this.copy(channel.subarray(0, frames), frames);
    const left = fit(this.left);
    const right = this.channels === 2 ? fit(this.right) : this.copy(left, frames);
    return { left, right };
  }

  private split(frames: number): void {
    if (this.frames + frames > this.left.length) this.grow(this.frames + frames);
    const { scratch, left, right } = this;
    let at = this.frames;
    if (this.channels === 1) {
      left.set(scratch.subarray(0, frames), at);
    } else {
      for (let j = 0, end = 2 * frames; j < end; j += 2, at++) {
        left[at] = scratch[j];
        right[at] = scratch[j + 1];
      }
    }
    this.frames += frames;
  }

  private grow(needed: number): void {
    const capacity = Math.max(needed, Math.ceil(this.left.length * 1.5));
    this.left = this.copy(this.left.subarray(0, this.frames), capacity);
    if (this.channels === 2) this.right = this.copy(this.right.subarray(0, this.frames), capacity);
    else this.right = this.left;
  }

  private copy(samples: Float32Array, capacity: number): Float32Array {
    const copy = this.allocate(capacity);
    copy.set(samples);
    return copy;
  }

  private allocate(frames: number): Float32Array {
    return this.shared ? new Float32Array(new SharedArrayBuffer(4 * frames)) : new Float32Array(frames);
  }
}

/**
 * Runs a tool to its end. Its stdout is handed to `onStdout` chunk by chunk when given (and not kept),
 * else collected and returned.
 */
function runTool(command: string, args: string[], onStdout?: (chunk: Buffer) => void): Promise<{ stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let failed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (!onStdout) return void out.push(chunk);
      if (failed) return;
      try {
        onStdout(chunk);
      } catch (error) {
        // The consumer gave up (e.g. out of memory): stop the tool and drop what it still sends.
        failed = true;
        child.kill('SIGKILL');
        child.stdout.destroy();
        reject(error as Error);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8').trim();
      if (code === 0) resolve({ stdout: Buffer.concat(out) });
      else reject(new MediaToolError(`${command} exited with ${code}: ${stderr.split('\n').pop() ?? ''}`, stderr));
    });
  });
}
