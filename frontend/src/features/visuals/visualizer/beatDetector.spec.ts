import { MASTER_ANALYSER_DB, MASTER_ANALYSER_SIZE, MASTER_ANALYSER_SMOOTHING } from '../../../audio/masterEffects';
import { BeatDetector, FALLBACK_BPM, bestPeriod, lowBandLevel } from './beatDetector';

const SAMPLE_RATE = 48_000;
const BIN_HZ = SAMPLE_RATE / MASTER_ANALYSER_SIZE;
const FRAME_MS = 1000 / 60;
/** Only the low bins are computed (the detector reads nothing else); the rest stay 0. */
const LOW_BINS = 8;

/** A click track: a decaying 60 Hz kick on every beat over a quiet 80 Hz bass line and some noise. */
function clickTrack(bpm: number, seconds: number, startMs: number): Float32Array {
  const samples = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  const period = (60 / bpm) * SAMPLE_RATE;
  let seed = 12345;
  const noise = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 0xffffffff) * 2 - 1;
  for (let i = 0; i < samples.length; i++) {
    const t = i / SAMPLE_RATE;
    samples[i] = 0.08 * Math.sin(2 * Math.PI * 80 * t) + 0.02 * noise();
  }
  for (let onset = (startMs / 1000) * SAMPLE_RATE; onset < samples.length; onset += period) {
    const first = Math.round(onset);
    for (let i = first; i < Math.min(samples.length, first + 0.4 * SAMPLE_RATE); i++) {
      const t = (i - first) / SAMPLE_RATE;
      samples[i]! += 0.9 * Math.exp(-t / 0.08) * Math.sin(2 * Math.PI * 60 * t);
    }
  }
  return samples;
}

/**
 * What getByteFrequencyData returns, per the Web Audio spec: the last fftSize samples, Blackman window,
 * DFT magnitude / N, smoothed with the previous frame, in dB scaled to 0–255 between min and max decibels.
 */
function analyserFrames(samples: Float32Array, frameTimesMs: number[]): Uint8Array[] {
  const n = MASTER_ANALYSER_SIZE;
  const window = Float64Array.from({ length: n }, (_, i) => 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / n) + 0.08 * Math.cos((4 * Math.PI * i) / n));
  const cos = Array.from({ length: LOW_BINS }, (_, bin) => Float64Array.from({ length: n }, (_, i) => Math.cos((2 * Math.PI * bin * i) / n)));
  const sin = Array.from({ length: LOW_BINS }, (_, bin) => Float64Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * bin * i) / n)));
  const windowed = new Float64Array(n);
  const smoothed = new Float64Array(LOW_BINS);
  const range = MASTER_ANALYSER_DB.max - MASTER_ANALYSER_DB.min;
  return frameTimesMs.map((timeMs) => {
    const end = Math.round((timeMs / 1000) * SAMPLE_RATE);
    const frame = new Uint8Array(n / 2);
    for (let i = 0; i < n; i++) windowed[i] = (samples[end - n + i] ?? 0) * window[i]!;
    for (let bin = 0; bin < LOW_BINS; bin++) {
      let re = 0;
      let im = 0;
      const [c, s] = [cos[bin]!, sin[bin]!];
      for (let i = 0; i < n; i++) {
        re += windowed[i]! * c[i]!;
        im -= windowed[i]! * s[i]!;
      }
      const magnitude = Math.hypot(re, im) / n;
      smoothed[bin] = MASTER_ANALYSER_SMOOTHING * smoothed[bin]! + (1 - MASTER_ANALYSER_SMOOTHING) * magnitude;
      const db = 20 * Math.log10(smoothed[bin]!);
      frame[bin] = Math.max(0, Math.min(255, Math.floor((255 / range) * (db - MASTER_ANALYSER_DB.min))));
    }
    return frame;
  });
}

/** Frame times of a 60 fps draw loop, each a little early or late (as requestAnimationFrame is). */
function frameTimes(seconds: number): number[] {
  const times: number[] = [];
  for (let frame = 0; frame * FRAME_MS < seconds * 1000; frame++) times.push(frame * FRAME_MS + ((frame * 7919) % 5) - 2);
  return times.filter((time) => time > 0);
}

function detect(bpm: number, seconds = 12) {
  const times = frameTimes(seconds);
  const frames = analyserFrames(clickTrack(bpm, seconds, 137), times);
  const detector = new BeatDetector(BIN_HZ);
  const beats: number[] = [];
  frames.forEach((frame, i) => {
    if (detector.push(frame, times[i]!).beat) beats.push(times[i]!);
  });
  return { detector, beats };
}

describe('BeatDetector on synthetic click tracks (analyser frames at 60 fps)', () => {
  it.each([72, 90, 120, 128, 174])('finds %i BPM within ±1 BPM', (bpm) => {
    const { detector, beats } = detect(bpm);
    expect(detector.measured).toBe(true);
    expect(Math.abs(detector.bpm - bpm)).toBeLessThanOrEqual(1);
    // One onset per click, each within two frames of the click.
    const period = 60_000 / bpm;
    const expected = Math.floor((12_000 - 137 - 50) / period) + 1;
    expect(Math.abs(beats.length - expected)).toBeLessThanOrEqual(1);
    for (const beat of beats) {
      const sincePrevious = (((beat - 137) % period) + period) % period;
      expect(Math.min(sincePrevious, period - sincePrevious)).toBeLessThan(2.5 * FRAME_MS + 42);
    }
  });

  it('reads the fallback 120 BPM until enough onsets agree, and for silence', () => {
    const { detector } = detect(90, 2);
    expect(detector.measured).toBe(false);
    expect(detector.bpm).toBe(FALLBACK_BPM);

    const silent = new BeatDetector(BIN_HZ);
    const quiet = new Uint8Array(1024);
    let beats = 0;
    for (let i = 0; i < 600; i++) beats += silent.push(quiet, i * FRAME_MS).beat ? 1 : 0;
    expect(beats).toBe(0);
    expect(silent.bpm).toBe(FALLBACK_BPM);
  });

  it('does not count a loud low band that does not reach the threshold 150', () => {
    const detector = new BeatDetector(BIN_HZ);
    let beats = 0;
    for (let i = 0; i < 600; i++) {
      const frame = new Uint8Array(1024).fill(i % 30 < 3 ? 149 : 40);
      beats += detector.push(frame, i * FRAME_MS).beat ? 1 : 0;
    }
    expect(beats).toBe(0);
  });

  it('starts over after seconds of silence (a new song is measured afresh)', () => {
    const { detector } = detect(128);
    expect(detector.measured).toBe(true);
    detector.push(new Uint8Array(1024), 12_000 + 5000);
    expect(detector.measured).toBe(false);
    expect(detector.bpm).toBe(FALLBACK_BPM);
  });
});

describe('bestPeriod', () => {
  it('prefers the beat period over its half and double, in 40–200 BPM', () => {
    const onsets = Array.from({ length: 12 }, (_, i) => 100 + i * 500);
    expect(bestPeriod(onsets)).toBeCloseTo(500, 3);
    // Every other beat missing at 180 BPM still reads 180, not 90.
    const sparse = [0, 333, 1000, 1333, 2000, 2333, 3000, 3333, 4000].map((t) => t * 1);
    expect(60_000 / bestPeriod(sparse)!).toBeCloseTo(180, 0);
    // Too slow for the range: 30 BPM onsets give no tempo (two periods of 2 s are outside 40–200).
    expect(bestPeriod([0, 2000, 4000, 6000, 8000])).toBeNull();
  });

  it('lowBandLevel averages the bins up to 150 Hz, skipping DC', () => {
    const frame = new Uint8Array(1024);
    frame[0] = 255;
    frame.fill(200, 1, 7);
    frame.fill(255, 7);
    expect(lowBandLevel(frame, BIN_HZ)).toBe(200);
  });
});
