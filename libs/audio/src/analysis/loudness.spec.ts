import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { encodeWav } from '../io/wav';
import type { StereoAudio } from '../types';
import { LOUDNESS_FLOOR_LUFS, measureLoudness } from './loudness';
import { chordProgression, drumGroove, mixSignals, noiseFloor, silence, sineTone } from './testing/test-signals';

const DBFS_MINUS_20 = 0.1;

function concat(...parts: StereoAudio[]): StereoAudio {
  const length = parts.reduce((sum, part) => sum + part.left.length, 0);
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    left.set(part.left, at);
    right.set(part.right, at);
    at += part.left.length;
  }
  return { sampleRate: parts[0].sampleRate, left, right };
}

/** ffmpeg's EBU R128 meter (`-af ebur128`): the integrated loudness of its summary, which it prints to stderr. */
function ffmpegIntegratedLoudness(audio: StereoAudio): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'loudness-'));
  try {
    const file = path.join(dir, 'signal.wav');
    writeFileSync(file, encodeWav(audio, 32));
    const run = spawnSync('ffmpeg', ['-nostats', '-hide_banner', '-i', file, '-af', 'ebur128', '-f', 'null', '-'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.error?.message ?? run.stderr}`);
    return ffmpegSummary(run.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function ffmpegSummary(log: string): number {
  const summary = log.slice(log.lastIndexOf('Summary:'));
  const match = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  if (!match) throw new Error(`No integrated loudness in ffmpeg's output:\n${log.slice(-500)}`);
  return Number(match[1]);
}

describe('measureLoudness (ITU-R BS.1770-4)', () => {
  it.each([44100, 48000])('reads a 997 Hz sine at −20 dBFS on both channels as −20 LUFS at %i Hz', (sampleRate) => {
    expect(measureLoudness(sineTone(997, 5, DBFS_MINUS_20, sampleRate)).integratedLufs).toBeCloseTo(-20, 1);
  });

  it('reads the same sine on one channel 3 dB lower', () => {
    const tone = sineTone(997, 5, DBFS_MINUS_20);
    const oneChannel = { ...tone, right: new Float32Array(tone.right.length) };
    expect(measureLoudness(oneChannel).integratedLufs).toBeCloseTo(-23.01, 1);
  });

  it('gates out a passage more than 10 LU below the rest (relative gate)', () => {
    const loudThenQuiet = concat(sineTone(997, 10, DBFS_MINUS_20), sineTone(997, 10, DBFS_MINUS_20 / 100));
    expect(measureLoudness(loudThenQuiet).integratedLufs).toBeGreaterThan(-20.3);
    expect(measureLoudness(loudThenQuiet).integratedLufs).toBeLessThan(-19.7);
  });

  it('reads silence, and audio shorter than one 400 ms block, as the floor', () => {
    expect(measureLoudness(silence(3)).integratedLufs).toBe(LOUDNESS_FLOOR_LUFS);
    expect(measureLoudness(sineTone(997, 0.3, DBFS_MINUS_20)).integratedLufs).toBe(LOUDNESS_FLOOR_LUFS);
  });

  it('measures the loudness range (EBU Tech 3342)', () => {
    expect(measureLoudness(sineTone(997, 20, DBFS_MINUS_20)).rangeLu).toBeLessThan(0.1);
    const twoLevels = concat(sineTone(997, 15, DBFS_MINUS_20), sineTone(997, 15, DBFS_MINUS_20 / Math.sqrt(10)));
    expect(measureLoudness(twoLevels).rangeLu).toBeGreaterThan(9);
    expect(measureLoudness(twoLevels).rangeLu).toBeLessThan(11);
  });

  it('agrees with ffmpeg -af ebur128 within 0.5 LU on music-like material', () => {
    const music = mixSignals(
      drumGroove({ bpm: 124, beatsPerBar: 4, seconds: 12 }),
      chordProgression({ tonicPitchClass: 4, mode: 'minor', seconds: 12 }),
      noiseFloor(12, 0.01),
    );
    const quieterRight = { ...music, right: music.right.map((sample) => 0.5 * sample) };
    const withQuietCoda = concat(quieterRight, sineTone(250, 4, 0.02));
    expect(Math.abs(measureLoudness(withQuietCoda).integratedLufs - ffmpegIntegratedLoudness(withQuietCoda))).toBeLessThan(0.5);
  });
});
