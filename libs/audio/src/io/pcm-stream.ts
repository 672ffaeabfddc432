import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { StereoAudio } from '../types';
import { MediaToolError, pcmDecodePlan, type MediaProbe } from './ffmpeg';

/** Frames per decoded chunk: one second at 44.1 kHz, so a decode holds a few hundred kB however long the file. */
export const DEFAULT_CHUNK_FRAMES = 44_100;

/**
 * Decodes the first audio stream of any file or URL ffmpeg reads as a stream of planar float stereo
 * chunks (each `chunkFrames` long but the last). Memory stays at about one chunk: ffmpeg is paused by
 * backpressure while the consumer works. Breaking out of the loop stops ffmpeg. A decode that fails
 * (also midway) throws a MediaToolError once the chunks decoded before the failure were consumed.
 */
export async function* decodeAudioStream(
  input: string,
  options: { probe?: MediaProbe; sampleRate?: number; chunkFrames?: number; ffmpeg?: string } = {},
): AsyncGenerator<StereoAudio> {
  const { sampleRate, channels, args } = await pcmDecodePlan(input, options);
  const chunkFrames = options.chunkFrames ?? DEFAULT_CHUNK_FRAMES;
  const command = options.ffmpeg ?? 'ffmpeg';
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = exitOf(child, command);
  const frameBytes = 4 * channels;
  const pending = new Float32Array(chunkFrames * channels);
  const pendingBytes = new Uint8Array(pending.buffer);
  let filledBytes = 0;
  const emit = (bytes: number): StereoAudio => deinterleave(pending, bytes / frameBytes, channels, sampleRate);
  let finished = false;
  try {
    for await (const data of child.stdout as AsyncIterable<Buffer>) {
      for (let offset = 0; offset < data.length; ) {
        const copied = Math.min(data.length - offset, pendingBytes.length - filledBytes);
        pendingBytes.set(data.subarray(offset, offset + copied), filledBytes);
        filledBytes += copied;
        offset += copied;
        if (filledBytes === pendingBytes.length) {
          yield emit(filledBytes);
          filledBytes = 0;
        }
      }
    }
    await exit;
    finished = true;
    const wholeFrames = filledBytes - (filledBytes % frameBytes);
    if (wholeFrames > 0) yield emit(wholeFrames);
  } finally {
    if (!finished) {
      child.kill('SIGKILL');
      await exit.catch(() => undefined);
    }
  }
}

/** A recording already in memory, handed out in chunks like a decode. */
export async function* chunksOf(audio: StereoAudio, chunkFrames = DEFAULT_CHUNK_FRAMES): AsyncGenerator<StereoAudio> {
  for (let from = 0; from < audio.left.length; from += chunkFrames) {
    const to = Math.min(audio.left.length, from + chunkFrames);
    yield { sampleRate: audio.sampleRate, left: audio.left.subarray(from, to), right: audio.right.subarray(from, to) };
  }
}

function deinterleave(samples: Float32Array, frames: number, channels: 1 | 2, sampleRate: number): StereoAudio {
  if (channels === 1) {
    const left = samples.slice(0, frames);
    return { sampleRate, left, right: left.slice() };
  }
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0, j = 0; i < frames; i++, j += 2) {
    left[i] = samples[j];
    right[i] = samples[j + 1];
  }
  return { sampleRate, left, right };
}

/**
 * A lossless stem encoder: one ffmpeg process fed planar float stereo on stdin, writing 24-bit FLAC on
 * stdout as it goes (the caller streams `output` into object storage). `write` waits while ffmpeg's
 * input pipe is full, so a slow store slows the separation instead of buffering it in memory.
 *
 * FLAC written to a pipe cannot have its header rewritten at the end, so its STREAMINFO says "length
 * unknown" (total samples 0, no MD5): valid FLAC that browsers and ffmpeg decode to the full length.
 */
export class FlacStreamEncoder {
  readonly output: Readable;
  readonly done: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  private failure?: Error;

  constructor(
    readonly sampleRate: number,
    options: { ffmpeg?: string; compressionLevel?: number } = {},
  ) {
    const command = options.ffmpeg ?? 'ffmpeg';
    this.child = spawn(command, [
      '-nostdin', '-v', 'error', '-f', 'f32le', '-ar', String(sampleRate), '-ac', '2', '-i', 'pipe:0',
      '-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24', '-compression_level', String(options.compressionLevel ?? 5),
      '-f', 'flac', 'pipe:1',
    ]);
    this.output = this.child.stdout;
    this.done = exitOf(this.child, command);
    this.done.catch((error: Error) => (this.failure = error));
    // A closed stdin (ffmpeg died) must surface through `done`, not as an unhandled stream error.
    this.child.stdin.on('error', (error: Error) => (this.failure ??= error));
  }

  /** Appends frames; resolves once ffmpeg has taken them (or its pipe has room again). */
  async write(left: Float32Array, right: Float32Array): Promise<void> {
    if (this.failure) throw this.failure;
    const frames = left.length;
    if (frames === 0) return;
    const interleaved = new Float32Array(2 * frames);
    for (let i = 0, j = 0; i < frames; i++, j += 2) {
      interleaved[j] = left[i];
      interleaved[j + 1] = right[i];
    }
    const bytes = Buffer.from(interleaved.buffer, interleaved.byteOffset, interleaved.byteLength);
    if (!this.child.stdin.write(bytes)) {
      await new Promise<void>((resolve) => {
        const settle = () => {
          this.child.stdin.off('drain', settle);
          this.child.off('close', settle);
          resolve();
        };
        this.child.stdin.once('drain', settle);
        this.child.once('close', settle);
      });
    }
    if (this.failure) throw this.failure;
  }

  /** No more frames: ffmpeg flushes and exits; `done` settles with its exit. */
  end(): Promise<void> {
    this.child.stdin.end();
    return this.done;
  }

  /** Stops the encoder without finishing its output (a failed job). */
  abort(): void {
    this.child.kill('SIGKILL');
  }
}

function exitOf(child: ChildProcessWithoutNullStreams | ReturnType<typeof spawn>, command: string): Promise<void> {
  const stderr: Buffer[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  const exit = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const text = Buffer.concat(stderr).toString('utf8').trim();
      if (code === 0) resolve();
      else reject(new MediaToolError(`${command} exited with ${code ?? signal}: ${text.split('\n').pop() ?? ''}`, text));
    });
  });
  // Callers may await it late (after the stream is drained); never an unhandled rejection meanwhile.
  exit.catch(() => undefined);
  return exit;
}
