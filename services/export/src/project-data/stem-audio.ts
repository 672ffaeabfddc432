import { spawn } from 'node:child_process';
import { decodeAudioStream, MediaToolError, probeMedia } from '@stemdeck/audio';
import type { ObjectStorageAdapter } from '@stemdeck/platform';
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

/** StemAudio with ffmpeg reading the objects straight from object storage. */
export class FfmpegStemAudio implements StemAudio {
  constructor(private readonly storage: Pick<ObjectStorageAdapter, 'presignedReadUrl'>) {}

  async framePower(objectKey: string, fps: number, progress?: { expectedSeconds: number; onProgress: (fraction: number) => void }): Promise<Float64Array> {
    const url = await this.storage.presignedReadUrl(objectKey, READ_URL_SECONDS);
    const probe = await probeMedia(url);
    const sampleRate = probe.audio?.sampleRate;
    if (!sampleRate) throw new MediaToolError(`No audio stream in ${objectKey}`, '');
    const meter = new FrameMeter(sampleRate, fps);
    // A FLAC streamed into storage may carry no length; the project's duration stands in for it.
    const expected = (probe.durationSeconds || progress?.expectedSeconds || 0) * sampleRate;
    let decoded = 0;
    for await (const chunk of decodeAudioStream(url, { probe, sampleRate })) {
      meter.push(chunk.left, chunk.right);
      decoded += chunk.left.length;
      if (expected > 0) progress?.onProgress(Math.min(1, decoded / expected));
    }
    progress?.onProgress(1);
    return meter.finish();
  }

  async writeWav(objectKey: string, outPath: string, title: string): Promise<void> {
    const url = await this.storage.presignedReadUrl(objectKey, READ_URL_SECONDS);
    await runFfmpeg([
      '-nostdin', '-v', 'error', '-y', '-i', url, '-map', '0:a:0', '-vn', '-map_metadata', '-1',
      '-af', 'aresample=osf=s16:dither_method=triangular', '-c:a', 'pcm_s16le', '-metadata', `title=${title}`, '-f', 'wav', outPath,
    ]);
  }
}

function runFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString()).slice(-4000)));
    child.once('error', (error) => reject(new MediaToolError(`ffmpeg could not start: ${error.message}`, stderr)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new MediaToolError(`ffmpeg exited with ${code}`, stderr))));
  });
}
