/**
 * Sanity checks for a generated eval set ("listen-equivalents"):
 *   node bench/dist/eval-set/verify.js [dir]
 * per stem active RMS / peak, mixture == sum of stems, drum-stem tempo from onsets,
 * and the key implied by all notes (Krumhansl–Kessler profiles over the MIDI parts).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { STEM_TYPES, type StereoAudio } from '@stemdeck/audio';
import { loadEvalSet, loadTrackAudio } from './load';
import { activeRms, peak } from './mixdown';
import { keyName, type Mode } from './theory';

const db = (x: number) => (x > 0 ? 20 * Math.log10(x) : -Infinity);

function maxSumError(mixture: StereoAudio, stems: StereoAudio[]): number {
  let worst = 0;
  for (let i = 0; i < mixture.left.length; i++) {
    let l = 0;
    let r = 0;
    for (const s of stems) {
      l += s.left[i];
      r += s.right[i];
    }
    worst = Math.max(worst, Math.abs(l - mixture.left[i]), Math.abs(r - mixture.right[i]));
  }
  return worst;
}

/** Tempo with the best onset autocorrelation in 60–200 BPM (5 ms frames, 0.1 BPM steps). */
export function onsetTempo(a: StereoAudio): number {
  const hop = Math.round(a.sampleRate * 0.005);
  const frames = Math.floor(a.left.length / hop);
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = f * hop + 1; i < (f + 1) * hop; i++) {
      const d = a.left[i] + a.right[i] - a.left[i - 1] - a.right[i - 1]; // first difference: favour attacks
      e += d * d;
    }
    energy[f] = Math.log(1e-9 + e);
  }
  const onset = new Float64Array(frames);
  for (let f = 1; f < frames; f++) onset[f] = Math.max(0, energy[f] - energy[f - 1]);
  const at = (x: number) => {
    const i = Math.floor(x);
    const frac = x - i;
    return i + 1 < frames ? onset[i] * (1 - frac) + onset[i + 1] * frac : 0;
  };
  let best = 0;
  let bestScore = -1;
  const framePeriod = hop / a.sampleRate;
  for (let bpm = 60; bpm <= 200; bpm += 0.1) {
    const lag = 60 / bpm / framePeriod;
    // Sum over four multiples of the period: sharper than one lag, and favours the beat level.
    let score = 0;
    for (let m = 1; m <= 4; m++) {
      let s = 0;
      for (let f = 0; f + m * lag < frames; f++) s += onset[f] * at(f + m * lag);
      score += s / (frames - m * lag);
    }
    if (score > bestScore) {
      bestScore = score;
      best = bpm;
    }
  }
  return Math.round(best * 10) / 10;
}

const MAJOR_PROFILE = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR_PROFILE = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

/** Duration-weighted pitch-class histogram of the MIDI parts (drums excluded). */
function midiPitchClasses(trackDir: string): number[] {
  const hist = new Array<number>(12).fill(0);
  for (const part of ['bass', 'other', 'vocals']) {
    const notes = parseMidiNotes(readFileSync(path.join(trackDir, 'midi', `${part}.mid`)));
    for (const n of notes) hist[n.pitch % 12] += n.ticks * (part === 'vocals' ? 2 : 1);
  }
  return hist;
}

function estimateKey(hist: number[]): { tonic: number; mode: Mode } {
  let best = { tonic: 0, mode: 'major' as Mode, r: -2 };
  for (const mode of ['major', 'minor'] as Mode[]) {
    const profile = mode === 'major' ? MAJOR_PROFILE : MINOR_PROFILE;
    for (let tonic = 0; tonic < 12; tonic++) {
      const r = correlation(hist, (i) => profile[(i - tonic + 12) % 12]);
      if (r > best.r) best = { tonic, mode, r };
    }
  }
  return best;
}

function correlation(xs: number[], ys: (i: number) => number): number {
  const n = xs.length;
  const y = Array.from({ length: n }, (_, i) => ys(i));
  const mx = xs.reduce((a, b) => a + b) / n;
  const my = y.reduce((a, b) => a + b) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (y[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Note-on/off pairs of a format-0 file as written by smf.ts (no running status). */
function parseMidiNotes(buf: Buffer): { pitch: number; ticks: number }[] {
  let pos = 22;
  let tick = 0;
  const open = new Map<number, number>();
  const notes: { pitch: number; ticks: number }[] = [];
  while (pos < buf.length) {
    let delta = 0;
    let b: number;
    do {
      b = buf[pos++];
      delta = (delta << 7) | (b & 0x7f);
    } while (b & 0x80);
    tick += delta;
    const status = buf[pos++];
    if (status === 0xff) {
      const len = buf[pos + 1];
      pos += 2 + len;
    } else if ((status & 0xf0) === 0xc0) pos += 1;
    else {
      const [d1, d2] = [buf[pos], buf[pos + 1]];
      pos += 2;
      const kind = status & 0xf0;
      const key = ((status & 0x0f) << 8) | d1;
      if (kind === 0x90 && d2 > 0) open.set(key, tick);
      else if (kind === 0x80 || kind === 0x90) {
        const start = open.get(key);
        if (start !== undefined) notes.push({ pitch: d1, ticks: tick - start });
        open.delete(key);
      }
    }
  }
  return notes;
}

function main(): void {
  const dir = process.argv[2];
  const tracks = loadEvalSet(dir);
  let failures = 0;
  for (const track of tracks) {
    const { mixture, stems } = loadTrackAudio(track);
    const levels = STEM_TYPES.map((s) => `${s} ${db(activeRms(stems[s])).toFixed(1)}/${db(peak(stems[s])).toFixed(1)}`).join('  ');
    const sumErr = maxSumError(mixture, STEM_TYPES.map((s) => stems[s]));
    const tempo = onsetTempo(stems.drums);
    const ratio = tempo / track.bpm;
    const tempoOk = [0.5, 1, 2, 2 / 3, 1.5].some((k) => Math.abs(ratio / k - 1) < 0.02);
    const key = estimateKey(midiPitchClasses(track.dir));
    const keyOk = key.tonic === track.tonicPitchClass && key.mode === track.mode;
    if (sumErr > 1e-6 || !tempoOk) failures++;
    console.log(
      `${track.id.padEnd(40)} mix ${db(activeRms(mixture)).toFixed(1)}/${db(peak(mixture)).toFixed(2)} dBFS  ${levels}  ` +
        `sumErr ${sumErr.toExponential(1)}  tempo ${tempo}${tempoOk ? '' : ' (!)'}  notes-key ${keyName(key.tonic, key.mode)}${keyOk ? '' : ' (!)'}`,
    );
  }
  console.log(failures === 0 ? 'all checks passed' : `${failures} track(s) failed the sum or tempo check`);
  process.exitCode = failures === 0 ? 0 : 1;
}

main();
