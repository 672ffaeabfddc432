import type { StereoAudio } from '../types';

/**
 * A small in-process FLAC encoder for short stereo clips: 24-bit, blocks of 4096 frames, each channel a
 * FIXED-predictor subframe (the best of orders 0–3 by summed |residual|) with one Rice partition. It
 * compresses a little less than ffmpeg's LPC, but it needs no process: four ffmpeg start-ups cost more
 * than the progressive first seconds take to encode, and those seconds are what the listener waits for.
 * Long stems stream through ffmpeg (FlacStreamEncoder). Format: https://xiph.org/flac/format.html
 */
export function encodeFlac24(audio: StereoAudio): Buffer {
  const frames = audio.left.length;
  const out = new BitWriter(Math.max(1024, Math.ceil(frames * 6 * 0.9)));
  out.bytes([0x66, 0x4c, 0x61, 0x43]); // "fLaC"
  writeStreamInfo(out, audio.sampleRate, frames);
  const left = new Int32Array(BLOCK);
  const right = new Int32Array(BLOCK);
  for (let from = 0, index = 0; from < frames; from += BLOCK, index++) {
    const size = Math.min(BLOCK, frames - from);
    for (let i = 0; i < size; i++) {
      left[i] = toInt24(audio.left[from + i]);
      right[i] = toInt24(audio.right[from + i]);
    }
    writeFrame(out, index, left.subarray(0, size), right.subarray(0, size));
  }
  return out.finish();
}

const BLOCK = 4096;
const MAX_24 = 8_388_607;

function toInt24(sample: number): number {
  const scaled = Math.round(sample * 8_388_608);
  return scaled > MAX_24 ? MAX_24 : scaled < -8_388_608 ? -8_388_608 : scaled;
}

function writeStreamInfo(out: BitWriter, sampleRate: number, frames: number): void {
  out.bits(1, 1); // last metadata block
  out.bits(0, 7); // STREAMINFO
  out.bits(34, 24);
  out.bits(BLOCK, 16);
  out.bits(BLOCK, 16);
  out.bits(0, 24); // min frame size: unknown
  out.bits(0, 24); // max frame size: unknown
  out.bits(sampleRate, 20);
  out.bits(1, 3); // channels − 1
  out.bits(23, 5); // bits per sample − 1
  out.bits(Math.floor(frames / 2 ** 32), 4);
  out.bits(frames >>> 0, 32);
  for (let i = 0; i < 16; i++) out.bits(0, 8); // MD5: not computed
}

function writeFrame(out: BitWriter, index: number, left: Int32Array, right: Int32Array): void {
  const start = out.byteLength();
  out.bits(0b11111111111110, 14); // sync
  out.bits(0, 1);
  out.bits(0, 1); // fixed block size
  out.bits(0b0111, 4); // block size: 16 bits after the header
  out.bits(0b0000, 4); // sample rate: from STREAMINFO
  out.bits(0b0001, 4); // left, right
  out.bits(0b110, 3); // 24 bits per sample
  out.bits(0, 1);
  writeUtf8Number(out, index);
  out.bits(left.length - 1, 16);
  out.bits(crc8(out.slice(start)), 8);
  writeFixedSubframe(out, left);
  writeFixedSubframe(out, right);
  out.alignToByte();
  out.bits(crc16(out.slice(start)), 16);
}

/** FLAC's "UTF-8" coding of the frame number. */
function writeUtf8Number(out: BitWriter, value: number): void {
  if (value < 0x80) return out.bits(value, 8);
  const count = value < 0x800 ? 2 : value < 0x10000 ? 3 : value < 0x200000 ? 4 : value < 0x4000000 ? 5 : 6;
  out.bits(((0xff << (8 - count)) & 0xff) | Math.floor(value / 2 ** (6 * (count - 1))), 8);
  for (let i = count - 2; i >= 0; i--) out.bits(0x80 | (Math.floor(value / 2 ** (6 * i)) & 0x3f), 8);
}

const residualBuffer = new Int32Array(BLOCK);

function writeFixedSubframe(out: BitWriter, samples: Int32Array): void {
  const n = samples.length;
  // The order whose residual is smallest (orders above the block's length are not allowed).
  // Summed |residual| of orders 0–3 in one pass (each from the first sample where it is defined).
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  for (let i = 0; i < n; i++) {
    const e0 = samples[i];
    sum0 += e0 < 0 ? -e0 : e0;
    if (i < 3) {
      if (i >= 1) sum1 += Math.abs(e0 - samples[i - 1]);
      if (i >= 2) sum2 += Math.abs(e0 - 2 * samples[i - 1] + samples[i - 2]);
      continue;
    }
    const e1 = e0 - samples[i - 1];
    const e2 = e1 - (samples[i - 1] - samples[i - 2]);
    const e3 = e2 - (samples[i - 1] - 2 * samples[i - 2] + samples[i - 3]);
    sum1 += e1 < 0 ? -e1 : e1;
    sum2 += e2 < 0 ? -e2 : e2;
    sum3 += e3 < 0 ? -e3 : e3;
  }
  const sums = [sum0, sum1, sum2, sum3];
  let bestOrder = 0;
  for (let order = 1; order <= Math.min(3, n); order++) if (sums[order] < sums[bestOrder]) bestOrder = order;
  const bestSum = sums[bestOrder];
  out.bits(0, 1);
  out.bits(0b001000 | bestOrder, 6);
  out.bits(0, 1); // no wasted bits
  for (let i = 0; i < bestOrder; i++) out.signed(samples[i], 24);
  const count = n - bestOrder;
  fixedResiduals(samples, bestOrder, residualBuffer);
  // Rice parameter from the mean folded residual (partition order 0: one parameter for the block).
  const mean = count > 0 ? (2 * bestSum) / count : 0;
  let k = 0;
  while (k < 30 && 2 ** (k + 1) < mean) k++;
  const method = k > 14 ? 1 : 0; // RICE2 (5-bit parameter) beyond what RICE (4-bit) can say
  out.bits(method, 2);
  out.bits(0, 4); // partition order 0
  out.bits(k, method === 1 ? 5 : 4);
  // Folded residuals of 24-bit samples stay under 2^28, so shifts and masks are exact here.
  const low = 1 << k;
  const lowMask = low - 1;
  for (let i = 0; i < count; i++) {
    const r = residualBuffer[i];
    const folded = r >= 0 ? 2 * r : -2 * r - 1;
    const quotient = folded >>> k;
    // The quotient in unary (zeros, then a one) and the low k bits, as one field where it fits.
    if (quotient + 1 + k <= 24) out.bits(low | (folded & lowMask), quotient + 1 + k);
    else {
      out.zeros(quotient);
      out.bits(low | (folded & lowMask), k + 1);
    }
  }
}

/** The fixed predictor's residuals of `order`, from sample `order` on, into `into` (one loop per order). */
function fixedResiduals(s: Int32Array, order: number, into: Int32Array): void {
  const n = s.length;
  switch (order) {
    case 0:
      into.set(s);
      return;
    case 1:
      for (let i = 1; i < n; i++) into[i - 1] = s[i] - s[i - 1];
      return;
    case 2:
      for (let i = 2; i < n; i++) into[i - 2] = s[i] - 2 * s[i - 1] + s[i - 2];
      return;
    default:
      for (let i = 3; i < n; i++) into[i - 3] = s[i] - 3 * s[i - 1] + 3 * s[i - 2] - s[i - 3];
  }
}

function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[(crc >> 8) ^ byte];
  return crc;
}

/** MSB-first bit writer over a growing byte array. */
class BitWriter {
  private buffer: Uint8Array;
  private length = 0;
  /** Bits not yet flushed (fewer than 8 between calls), right-aligned. */
  private accumulator = 0;
  private pending = 0;

  constructor(capacity: number) {
    this.buffer = new Uint8Array(capacity);
  }

  /** Writes the low `count` bits of a non-negative `value` (count ≤ 32). */
  bits(value: number, count: number): void {
    if (count > 24) {
      this.bits(Math.floor(value / 65536), count - 16);
      this.bits(value & 0xffff, 16);
      return;
    }
    // At most 7 pending + 24 new bits: fits a 31-bit integer.
    this.accumulator = (this.accumulator << count) | value;
    this.pending += count;
    while (this.pending >= 8) {
      this.pending -= 8;
      this.pushByte((this.accumulator >>> this.pending) & 0xff);
    }
    this.accumulator &= (1 << this.pending) - 1;
  }

  signed(value: number, count: number): void {
    this.bits(value < 0 ? value + 2 ** count : value, count);
  }

  zeros(count: number): void {
    for (; count > 24; count -= 24) this.bits(0, 24);
    this.bits(0, count);
  }

  bytes(values: number[]): void {
    for (const value of values) this.bits(value, 8);
  }

  alignToByte(): void {
    if (this.pending > 0) this.bits(0, 8 - this.pending);
  }

  byteLength(): number {
    return this.length;
  }

  /** Whole bytes written since `from` (call at a byte boundary). */
  slice(from: number): Uint8Array {
    return this.buffer.subarray(from, this.length);
  }

  finish(): Buffer {
    this.alignToByte();
    return Buffer.from(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }

  private pushByte(byte: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = byte;
  }
}
