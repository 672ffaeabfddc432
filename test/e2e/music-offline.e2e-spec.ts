import { build } from 'esbuild';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';

jest.setTimeout(60_000);

const RATE = 44100;
const HARNESS = join(__dirname, '..', '..', 'frontend', 'src', 'instruments', 'testing', 'offline.harness.ts');

type Harness = {
  drumPattern(bpm: number, seconds: number, rows?: string[]): Promise<string>;
  synthNote(settings: Record<string, unknown>, hold: number, seconds: number): Promise<string>;
  demoSong(id: string, seconds: number): Promise<string>;
  testTones(): Promise<string>;
  demoStartStop(cycles: number, busyMs: number): Promise<void>;
};

const decode = (base64: string): Float32Array => {
  const bytes = Buffer.from(base64, 'base64');
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
};

/** RMS of [from, to) seconds. */
function rms(samples: Float32Array, from: number, to: number): number {
  let sum = 0;
  const start = Math.round(from * RATE);
  const end = Math.min(samples.length, Math.round(to * RATE));
  for (let i = start; i < end; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / Math.max(1, end - start));
}

/** Onsets: the first sample above `threshold` after at least `gap` s below it. */
function onsets(samples: Float32Array, threshold: number, gap = 0.05): number[] {
  const found: number[] = [];
  let quiet = gap * RATE;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]!) > threshold) {
      if (quiet >= gap * RATE) found.push(i / RATE);
      quiet = 0;
    } else quiet++;
  }
  return found;
}

/** Frequency of a pure tone from its zero crossings in [from, to). */
function toneFrequency(samples: Float32Array, from: number, to: number): number {
  const start = Math.round(from * RATE);
  const end = Math.round(to * RATE);
  const crossings: number[] = [];
  for (let i = start + 1; i < end; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    if (a <= 0 && b > 0) crossings.push(i - 1 + a / (a - b));
  }
  return (crossings.length - 1) / ((crossings.at(-1)! - crossings[0]!) / RATE);
}

/** Autocorrelation of the positive changes of a 1.45 ms RMS envelope, as a function of the lag in seconds. */
function onsetAutocorrelation(samples: Float32Array): (lag: number) => number {
  const hop = 64;
  const envelope = Float32Array.from({ length: Math.floor(samples.length / hop) }, (_, i) => rms(samples, (i * hop) / RATE, ((i + 1) * hop) / RATE));
  const flux = envelope.map((v, i) => (i === 0 ? 0 : Math.max(0, v - envelope[i - 1]!)));
  return (lag) => {
    const frames = Math.round((lag * RATE) / hop);
    let sum = 0;
    for (let i = frames; i < flux.length; i++) sum += flux[i]! * flux[i - frames]!;
    return sum / (flux.length - frames);
  };
}

/** Renders the instruments with Tone.Offline (OfflineAudioContext) in headless Chromium. */
describe('instruments rendered offline in Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({ entryPoints: [HARNESS], bundle: true, write: false, format: 'iife', globalName: 'stemdeckHarness', target: 'es2022', logLevel: 'silent' });
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });
  afterAll(() => browser.close());
  const pageErrors: string[] = [];
  beforeAll(() => void page.on('pageerror', (error) => pageErrors.push(error.message)));

  const render = <K extends keyof Harness>(name: K, ...args: Parameters<Harness[K]>) =>
    page.evaluate(([fn, fnArgs]) => (window as unknown as { stemdeckHarness: Record<string, (...a: unknown[]) => Promise<string>> }).stemdeckHarness[fn]!(...fnArgs), [name, args] as const).then(decode);

  it('the default pattern at 120 BPM puts kicks at 0, 0.5, 1.0 and 1.5 s (±1 ms)', async () => {
    const kick = await render('drumPattern', 120, 2, ['kick']);
    const found = onsets(kick, 0.01, 0.1);
    expect(found).toHaveLength(4);
    found.forEach((time, i) => expect(Math.abs(time - i * 0.5)).toBeLessThanOrEqual(0.001));
    // The whole pattern sounds on every 16th (hi-hat on every step): energy in each 125 ms slot.
    const full = await render('drumPattern', 120, 2);
    for (let step = 0; step < 16; step++) expect(rms(full, step * 0.125, step * 0.125 + 0.03)).toBeGreaterThan(0.005);
  });

  it('follows the tempo: at 60 BPM the kicks are a second apart', async () => {
    const kick = await render('drumPattern', 60, 2.5, ['kick']);
    const found = onsets(kick, 0.01, 0.1);
    expect(found.map((t) => Math.round(t * 1000))).toEqual([0, 1000, 2000]);
  });

  it('the synth envelope follows ADSR (attack 0.1, decay 0.2, sustain 0.5, release 0.3)', async () => {
    const note = await render('synthNote', { attack: 0.1, decay: 0.2, sustain: 0.5, release: 0.3 }, 0.8, 1.4);
    const level = (t: number) => rms(note, t - 0.01, t + 0.01);
    const peak = Math.max(...Array.from({ length: 40 }, (_, i) => level(0.02 + i * 0.01)));
    // Rising through the attack, at the top around 0.1 s.
    expect(level(0.05)).toBeGreaterThan(0.3 * peak);
    expect(level(0.05)).toBeLessThan(0.75 * peak);
    expect(level(0.1)).toBeGreaterThan(0.9 * peak);
    // Sustain: half the peak, held until the release at 0.8 s.
    for (const t of [0.45, 0.6, 0.75]) expect(level(t) / peak).toBeCloseTo(0.5, 1);
    // Release fades out over 0.3 s: lower by 0.95, silent after 1.1.
    expect(level(0.95)).toBeLessThan(0.35 * peak);
    expect(level(1.25)).toBeLessThan(0.01 * peak);
  });

  it.each([
    ['basic-beat', 120],
    ['melody-chords', 140],
    ['full-track', 128],
  ])('demo song %s is not silent and moves at %i BPM', async (id, bpm) => {
    const audio = await render('demoSong', id, 4);
    expect(rms(audio, 0, 4)).toBeGreaterThan(0.01);
    // The sound starts at once and goes on: every beat-long window has energy.
    const beat = 60 / bpm;
    for (let t = 0; t + beat <= 4; t += beat) expect(rms(audio, t, t + beat)).toBeGreaterThan(0.003);
    // It pulses at its tempo: the onset envelope repeats after an 8th note of this tempo more than after
    // lags 30 % off it.
    const eighth = beat / 2;
    const periodicity = onsetAutocorrelation(audio);
    expect(periodicity(eighth)).toBeGreaterThan(periodicity(eighth * 0.7));
    expect(periodicity(eighth)).toBeGreaterThan(periodicity(eighth * 1.3));
  });

  it('the audio test plays 440, 523, 659 and 784 Hz, 200 ms apart', async () => {
    const tones = await render('testTones');
    const frequencies = [0, 1, 2, 3].map((i) => toneFrequency(tones, i * 0.2 + 0.02, i * 0.2 + 0.16));
    [440, 523, 659, 784].forEach((expected, i) => expect(Math.abs(frequencies[i]! - expected)).toBeLessThan(1));
    const starts = onsets(tones, 0.01, 0.01);
    expect(starts).toHaveLength(4);
    starts.forEach((t, i) => expect(Math.abs(t - i * 0.2)).toBeLessThan(0.002));
  });

  it('starting and stopping the demo songs over and over, on a busy page too, throws nothing', async () => {
    // A click gives the page the user gesture that lets its AudioContext run.
    await page.evaluate(() => void (document.body.innerHTML = '<button id="start">Start</button>'));
    await page.click('#start');
    pageErrors.length = 0;
    await page.evaluate(() => (window as unknown as { stemdeckHarness: Harness }).stemdeckHarness.demoStartStop(12, 300));
    // Before: "Failed to execute 'disconnect' on 'AudioNode'" (instruments freed while notes still rang)
    // and "Start time must be strictly greater than previous start time" (late hits clamped to one time).
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
