import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav, encodeWav, WavBitDepth, WavFileWriter } from './wav';

const tone = (frames: number) => ({
  sampleRate: 48000,
  left: Float32Array.from({ length: frames }, (_, i) => 0.8 * Math.sin(i / 7)),
  right: Float32Array.from({ length: frames }, (_, i) => -0.5 * Math.cos(i / 3)),
});

describe('WAV', () => {
  it.each<[WavBitDepth, number]>([
    [16, 2 / 32767],
    [24, 2 / 8388607],
    [32, 0],
  ])('round-trips %i-bit stereo within a step (encode scales by 2^(n-1)-1, decode by 2^(n-1))', (bits, step) => {
    const audio = tone(1000);
    const decoded = decodeWav(encodeWav(audio, bits));
    expect(decoded.sampleRate).toBe(48000);
    expect(decoded.left.length).toBe(1000);
    for (let i = 0; i < 1000; i++) {
      expect(Math.abs(decoded.left[i]! - audio.left[i]!)).toBeLessThanOrEqual(step);
      expect(Math.abs(decoded.right[i]! - audio.right[i]!)).toBeLessThanOrEqual(step);
    }
  });

  it('clips out-of-range samples and rounds to the nearest step', () => {
    const wav = encodeWav({ sampleRate: 8000, left: Float32Array.of(1.5, -1.5, 0.6 / 32767, -0.6 / 32767), right: new Float32Array(4) }, 16);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(40)).toBe(16);
    expect([0, 1, 2, 3].map((i) => wav.readInt16LE(44 + i * 4))).toEqual([32767, -32767, 1, -1]);
  });

  it('duplicates a mono file into both channels', () => {
    const mono = encodeWav(tone(10), 16);
    // Rewrite as mono: 1 channel, halve block align and byte rate, keep the left samples only.
    const frames = 10;
    const out = Buffer.alloc(44 + frames * 2);
    mono.copy(out, 0, 0, 44);
    out.writeUInt16LE(1, 22);
    out.writeUInt32LE(48000 * 2, 28);
    out.writeUInt16LE(2, 32);
    out.writeUInt32LE(frames * 2, 40);
    for (let i = 0; i < frames; i++) out.writeInt16LE(mono.readInt16LE(44 + i * 4), 44 + i * 2);
    const decoded = decodeWav(out);
    expect(Array.from(decoded.right)).toEqual(Array.from(decoded.left));
    expect(decoded.left[3]).toBeCloseTo(0.8 * Math.sin(3 / 7), 4);
  });

  it('refuses what is not a WAV file', () => {
    expect(() => decodeWav(Buffer.from('not a wav file at all'))).toThrow('Not a RIFF/WAVE file');
  });

  it.each<WavBitDepth>([16, 24, 32])('writes a %i-bit file piece by piece that reads back as the one-buffer encoding', (bits) => {
    const audio = tone(1000);
    const dir = mkdtempSync(join(tmpdir(), 'wav-writer-'));
    try {
      const writer = new WavFileWriter(join(dir, 'stem.wav'), 48000, bits);
      for (const [from, to] of [[0, 1], [1, 400], [400, 1000]]) {
        writer.append({ sampleRate: 48000, left: audio.left.subarray(from, to), right: audio.right.subarray(from, to) });
      }
      writer.close();
      expect(readFileSync(join(dir, 'stem.wav')).equals(encodeWav(audio, bits))).toBe(true);
      expect(() => writer.append(audio)).toThrow(/closed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes ranges in any order at their own place, the length being the furthest end', () => {
    const audio = tone(1000);
    const dir = mkdtempSync(join(tmpdir(), 'wav-writer-'));
    try {
      const writer = new WavFileWriter(join(dir, 'stem.wav'), 48000, 16);
      writer.writeAt(600, audio, 600, 1000);
      writer.writeAt(0, audio, 0, 250);
      writer.writeAt(250, audio, 250, 600);
      writer.close();
      expect(readFileSync(join(dir, 'stem.wav')).equals(encodeWav(audio, 16))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses audio at another rate than the file it writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wav-writer-'));
    try {
      const writer = new WavFileWriter(join(dir, 'stem.wav'), 44100);
      expect(() => writer.append(tone(10))).toThrow(/48000 Hz audio in a 44100 Hz file/);
      writer.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
