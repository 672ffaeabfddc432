import { closeSync, openSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import type { StereoAudio } from '../types';

/** Typed-array views write samples in the platform's byte order; WAV is little-endian. */
const LITTLE_ENDIAN_PLATFORM = endianness() === 'LE';

/** 16 and 24 are integer PCM; 32 is IEEE float. */
export type WavBitDepth = 16 | 24 | 32;

const HEADER_BYTES = 44;

/** Encodes planar stereo into a canonical RIFF/WAVE file (interleaved, little-endian). */
export function encodeWav(audio: StereoAudio, bitDepth: WavBitDepth = 16): Buffer {
  const frames = audio.left.length;
  const bytesPerSample = bitDepth / 8;
  const blockAlign = 2 * bytesPerSample;
  const dataBytes = frames * blockAlign;
  const out = Buffer.allocUnsafe(HEADER_BYTES + dataBytes);
  writeHeader(out, audio.sampleRate, bitDepth, dataBytes);
  writeSamples(out, HEADER_BYTES, audio, 0, frames, bitDepth);
  return out;
}

/**
 * Writes a WAV file piece by piece as the audio is produced (e.g. a streamed separation's stems), so the
 * whole track is never held as one encoded buffer. The header's sizes are written last, when the length
 * is known. Writes are synchronous: they land in the page cache and cost less than an await each.
 */
export class WavFileWriter {
  private readonly fd: number;
  private frames = 0;
  private closed = false;
  /** The encoded bytes of one write, reused (a fresh buffer per segment costs page faults, not just copies). */
  private scratch = Buffer.alloc(0);

  constructor(
    readonly path: string,
    private readonly sampleRate: number,
    private readonly bitDepth: WavBitDepth = 16,
  ) {
    this.fd = openSync(path, 'w');
    const header = Buffer.alloc(HEADER_BYTES);
    writeHeader(header, sampleRate, bitDepth, 0);
    writeSync(this.fd, header, 0, HEADER_BYTES, 0);
  }

  /** Adds `audio` after everything written so far. */
  append(audio: StereoAudio): void {
    this.writeAt(this.frames, audio, 0, audio.left.length);
  }

  /**
   * Writes frames [from, to) of `audio` at frame `at` of the file, in any order (a separation's segments
   * finish out of order); the file's length is the end of the furthest range written.
   */
  writeAt(at: number, audio: StereoAudio, from: number, to: number): void {
    if (this.closed) throw new Error(`${this.path} is already closed`);
    if (audio.sampleRate !== this.sampleRate) throw new Error(`${this.path}: ${audio.sampleRate} Hz audio in a ${this.sampleRate} Hz file`);
    const blockAlign = 2 * (this.bitDepth / 8);
    const bytes = (to - from) * blockAlign;
    if (this.scratch.length < bytes) this.scratch = Buffer.allocUnsafeSlow(bytes);
    writeSamples(this.scratch, 0, audio, from, to, this.bitDepth);
    writeSync(this.fd, this.scratch, 0, bytes, HEADER_BYTES + at * blockAlign);
    this.frames = Math.max(this.frames, at + to - from);
  }

  /** Writes the final sizes into the header and closes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      writeHeader(header, this.sampleRate, this.bitDepth, this.frames * 2 * (this.bitDepth / 8));
      writeSync(this.fd, header, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(this.fd);
    }
  }
}

function writeHeader(out: Buffer, sampleRate: number, bitDepth: WavBitDepth, dataBytes: number): void {
  const blockAlign = 2 * (bitDepth / 8);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(bitDepth === 32 ? 3 : 1, 20);
  out.writeUInt16LE(2, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * blockAlign, 28);
  out.writeUInt16LE(blockAlign, 32);
  out.writeUInt16LE(bitDepth, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
}

function writeSamples(out: Buffer, offset: number, audio: StereoAudio, start: number, end: number, bitDepth: WavBitDepth) {
  const { left, right } = audio;
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let pos = offset;
  if (bitDepth === 32) {
    for (let i = start; i < end; i++, pos += 8) {
      view.setFloat32(pos, left[i], true);
      view.setFloat32(pos + 4, right[i], true);
    }
    return;
  }
  const scale = bitDepth === 16 ? 32767 : 8388607;
  const toInt = (sample: number) => Math.round((sample > 1 ? 1 : sample < -1 ? -1 : sample) * scale);
  if (bitDepth === 16 && LITTLE_ENDIAN_PLATFORM && (out.byteOffset + offset) % 2 === 0) {
    // The common case (stems for playback): an Int16Array view is several times faster than DataView calls.
    const samples = new Int16Array(out.buffer, out.byteOffset + offset, (end - start) * 2);
    for (let i = start, j = 0; i < end; i++, j += 2) {
      samples[j] = quantize16(left[i]);
      samples[j + 1] = quantize16(right[i]);
    }
    return;
  }
  for (let i = start; i < end; i++) {
    if (bitDepth === 16) {
      view.setInt16(pos, toInt(left[i]), true);
      view.setInt16(pos + 2, toInt(right[i]), true);
      pos += 4;
    } else {
      out.writeIntLE(toInt(left[i]), pos, 3);
      out.writeIntLE(toInt(right[i]), pos + 3, 3);
      pos += 6;
    }
  }
}

/** Clips to [-1, 1] and rounds half away from zero; the Int16Array store truncates the rest. */
function quantize16(sample: number): number {
  const scaled = (sample > 1 ? 1 : sample < -1 ? -1 : sample) * 32767;
  return scaled < 0 ? scaled - 0.5 : scaled + 0.5;
}

/** Decodes PCM 8/16/24/32-bit integer or 32/64-bit float WAV, mono or stereo (more channels: first two). */
export function decodeWav(buf: Buffer): StereoAudio {
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('Not a RIFF/WAVE file');
  }
  let pos = 12;
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bitDepth = 0;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') {
      format = buf.readUInt16LE(body);
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bitDepth = buf.readUInt16LE(body + 14);
      if (format === 0xfffe) format = buf.readUInt16LE(body + 24); // WAVE_FORMAT_EXTENSIBLE sub-format
    } else if (id === 'data') {
      if (!channels) throw new Error('WAV data chunk before fmt chunk');
      const dataEnd = Math.min(buf.length, body + size);
      return readSamples(buf, body, dataEnd, { format, channels, sampleRate, bitDepth });
    }
    pos = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

function readSamples(
  buf: Buffer,
  start: number,
  end: number,
  fmt: { format: number; channels: number; sampleRate: number; bitDepth: number },
): StereoAudio {
  const bytes = fmt.bitDepth / 8;
  const frameBytes = bytes * fmt.channels;
  const frames = Math.floor((end - start) / frameBytes);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  const read = sampleReader(buf, fmt.format, fmt.bitDepth);
  for (let i = 0; i < frames; i++) {
    const at = start + i * frameBytes;
    left[i] = read(at);
    right[i] = fmt.channels > 1 ? read(at + bytes) : left[i];
  }
  return { sampleRate: fmt.sampleRate, left, right };
}

function sampleReader(buf: Buffer, format: number, bitDepth: number): (at: number) => number {
  if (format === 3 && bitDepth === 32) return (at) => buf.readFloatLE(at);
  if (format === 3 && bitDepth === 64) return (at) => buf.readDoubleLE(at);
  if (format !== 1) throw new Error(`Unsupported WAV format ${format}`);
  switch (bitDepth) {
    case 8:
      return (at) => (buf[at] - 128) / 128;
    case 16:
      return (at) => buf.readInt16LE(at) / 32768;
    case 24:
      return (at) => buf.readIntLE(at, 3) / 8388608;
    case 32:
      return (at) => buf.readInt32LE(at) / 2147483648;
    default:
      throw new Error(`Unsupported WAV bit depth ${bitDepth}`);
  }
}
