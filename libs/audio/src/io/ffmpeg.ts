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
 * Decodes the first audio stream of any file or URL ffmpeg reads into planar float stereo.
 * Keeps the source sample rate unless one is asked for; mono is duplicated, more channels are downmixed by ffmpeg.
 */
export async function decodeAudio(
  input: string,
  options: { sampleRate?: number; ffmpeg?: string; probe?: MediaProbe } = {},
): Promise<StereoAudio> {
  // A caller that already probed the input passes its answer instead of running ffprobe twice.
  const probe = options.probe ?? (await probeMedia(input));
  const sampleRate = options.sampleRate ?? probe.audio?.sampleRate;
  if (!probe.audio || !sampleRate) throw new MediaToolError('No audio stream', '');
  // Mono is decoded as mono and duplicated here: ffmpeg's mono-to-stereo upmix lowers the level by 3 dB.
  const channels = probe.audio.channels === 1 ? 1 : 2;
  const { stdout } = await runTool(options.ffmpeg ?? 'ffmpeg', [
    '-nostdin', '-v', 'error', '-i', input, '-map', '0:a:0', '-vn', '-ac', String(channels), '-ar', String(sampleRate),
    '-f', 'f32le', '-acodec', 'pcm_f32le', 'pipe:1',
  ]);
  return deinterleave(stdout, sampleRate, channels);
}

function deinterleave(pcm: Buffer, sampleRate: number, channels: 1 | 2): StereoAudio {
  if (channels === 1) {
    const frames = Math.floor(pcm.length / 4);
    const mono = new Float32Array(frames);
    new Uint8Array(mono.buffer).set(pcm.subarray(0, frames * 4));
    return { sampleRate, left: mono, right: mono.slice() };
  }
  const frames = Math.floor(pcm.length / 8);
  // Copy into an aligned buffer: Buffer.concat output may start at an offset not divisible by 4.
  const aligned = new Float32Array(frames * 2);
  new Uint8Array(aligned.buffer).set(pcm.subarray(0, frames * 8));
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0, j = 0; i < frames; i++, j += 2) {
    left[i] = aligned[j];
    right[i] = aligned[j + 1];
  }
  return { sampleRate, left, right };
}

function runTool(command: string, args: string[]): Promise<{ stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8').trim();
      if (code === 0) resolve({ stdout: Buffer.concat(out) });
      else reject(new MediaToolError(`${command} exited with ${code}: ${stderr.split('\n').pop() ?? ''}`, stderr));
    });
  });
}
