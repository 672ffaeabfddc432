import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav, encodeWav } from '../../io/wav';
import { STEM_TYPES, type StemType } from '../../types';
import { FastSeparator } from './fast-separator';
import { splitFileFast } from './split-file';

jest.setTimeout(60_000);

describe('splitFileFast (real ffmpeg)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stemdeck-split-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the four WAV files the whole-array separation gives, byte for byte', async () => {
    // 14 s: more than one 12 s segment, so a seam and the last, clipped segment are both in it.
    const sampleRate = 44100;
    const frames = 14 * sampleRate + 321;
    let seed = 7;
    const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.2;
    const left = Float32Array.from({ length: frames }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / sampleRate) + (i % 11025 < 800 ? noise() : 0));
    const right = Float32Array.from({ length: frames }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / sampleRate) + 0.2 * Math.sin((2 * Math.PI * 330 * i) / sampleRate));
    const input = join(dir, 'mix.wav');
    writeFileSync(input, encodeWav({ sampleRate, left, right }, 32));

    const outputs = Object.fromEntries(STEM_TYPES.map((type) => [type, join(dir, `${type}.wav`)])) as Record<StemType, string>;
    const fractions: number[] = [];
    const result = await splitFileFast(input, outputs, { threads: 0, onProgress: ({ fraction }) => fractions.push(fraction) });

    expect(result).toEqual({ sampleRate, frames });
    expect(fractions[fractions.length - 1]).toBe(1);
    const whole = await new FastSeparator({ threads: 0 }).separate(decodeWav(readFileSync(input)));
    for (const type of STEM_TYPES) expect(readFileSync(outputs[type]).equals(encodeWav(whole[type], 16))).toBe(true);
    // The four 16-bit stems still add up to the mixture, within a rounding step each.
    const stems = STEM_TYPES.map((type) => decodeWav(readFileSync(outputs[type])));
    let worst = 0;
    for (let i = 0; i < frames; i++) worst = Math.max(worst, Math.abs(stems.reduce((sum, s) => sum + s.left[i], 0) - left[i]));
    expect(worst).toBeLessThan(4 / 32767);
  });

  it('refuses a file without audio and writes nothing', async () => {
    const input = join(dir, 'notes.txt');
    writeFileSync(input, 'not audio at all');
    const outputs = Object.fromEntries(STEM_TYPES.map((type) => [type, join(dir, `none-${type}.wav`)])) as Record<StemType, string>;
    await expect(splitFileFast(input, outputs, { threads: 0 })).rejects.toThrow();
    expect(() => readFileSync(outputs.vocals)).toThrow(/ENOENT/);
  });
});
