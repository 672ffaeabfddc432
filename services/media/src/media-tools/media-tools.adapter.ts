import { Injectable } from '@nestjs/common';
import { decodeAudioStream, FlacStreamEncoder, MediaProbe, probeMedia, StereoAudio } from '@stemdeck/audio';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Leading bytes of the container formats we accept: a file that starts like one but will not decode is corrupt, not foreign. */
const MEDIA_SIGNATURES: Array<{ offset: number; bytes: number[] }> = [
  { offset: 0, bytes: [0x52, 0x49, 0x46, 0x46] }, // RIFF (WAV, AVI)
  { offset: 0, bytes: [0x49, 0x44, 0x33] }, // ID3 (MP3)
  { offset: 0, bytes: [0x66, 0x4c, 0x61, 0x43] }, // fLaC
  { offset: 0, bytes: [0x4f, 0x67, 0x67, 0x53] }, // OggS
  { offset: 4, bytes: [0x66, 0x74, 0x79, 0x70] }, // ftyp (MP4, M4A, MOV)
  { offset: 4, bytes: [0x6d, 0x6f, 0x6f, 0x76] }, // moov (old QuickTime)
  { offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3] }, // EBML (MKV, WebM)
  { offset: 0, bytes: [0x46, 0x4f, 0x52, 0x4d] }, // FORM (AIFF)
];

export function looksLikeMedia(head: Buffer): boolean {
  if (MEDIA_SIGNATURES.some(({ offset, bytes }) => bytes.every((byte, i) => head[offset + i] === byte))) return true;
  // MPEG audio frame sync (MP3 without ID3, ADTS AAC): 11 set bits.
  return head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0;
}

/** Image "formats" ffprobe reads as a single video frame: not something we can split. */
const STILL_IMAGE_CODECS = new Set(['png', 'mjpeg', 'gif', 'bmp', 'webp', 'tiff', 'jpegls', 'jpeg2000', 'svg']);

export function isStillImage(probe: MediaProbe): boolean {
  return !probe.audio && (probe.formatName.endsWith('_pipe') || probe.formatName === 'image2' || STILL_IMAGE_CODECS.has(probe.video?.codec ?? ''));
}

/** The one place media runs ffprobe and ffmpeg. Inputs are URLs (presigned object-storage reads) or paths. */
@Injectable()
export class MediaToolsAdapter {
  probe(input: string): Promise<MediaProbe> {
    return probeMedia(input);
  }

  /** The audio as planar float chunks of about a second, decoded as they are read (see decodeAudioStream). */
  decodeStream(input: string, probe?: MediaProbe): AsyncGenerator<StereoAudio> {
    return decodeAudioStream(input, { probe });
  }

  /** A 24-bit FLAC encoder fed stem samples as they are separated (one ffmpeg per stem). */
  flacEncoder(sampleRate: number): FlacStreamEncoder {
    return new FlacStreamEncoder(sampleRate);
  }

  /** The first audio track of a video, losslessly compressed as FLAC, streamed out of ffmpeg. */
  extractAudioTrack(input: string): { stream: Readable; done: Promise<void> } {
    const child = spawn('ffmpeg', ['-nostdin', '-v', 'error', '-i', input, '-map', '0:a:0', '-vn', '-c:a', 'flac', '-f', 'flac', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const done = new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${Buffer.concat(stderr).toString().trim()}`)),
      );
    });
    return { stream: child.stdout, done };
  }
}
