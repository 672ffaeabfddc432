/**
 * Fits LEVEL_WEIGHTS (tempo-octave.ts): softmax regression over the metrical-level candidates of labelled songs.
 * Training material only (never a held-out set); prints the weights, the accuracy on each set, and the accuracy
 * with each kind of groove left out of the fit in turn (how the model does on a groove it has not seen). `--dump`
 * writes every example's cues, candidates and label as JSON, for trying other cues or models outside this script.
 *
 *   npx esbuild libs/audio/src/analysis/testing/fit-level-weights.ts --bundle --platform=node \
 *     --outfile=/tmp/fit-level-weights.js && node /tmp/fit-level-weights.js \
 *     --fit .data/eval-set --fit .data/tempo-set-1 --fit .data/tempo-set-2 --fit .data/wide-set-1 \
 *     [--check .data/tempo-set-3 --check .data/wide-set-2 --check .data/wide-set-3] [--dump examples.json]
 *
 * The development set (index set "full") and the synthetic signals of the analysis specs count twice in the fit:
 * the development set must stay exact, and the specs' clean click tracks and grooves are unlike any mix.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeWav } from '../../io/wav';
import type { StereoAudio } from '../../types';
import { bandEnergies } from '../bands';
import { decimateToAnalysisRate, downmixToMono } from '../mono-signal';
import { onsetEnvelope } from '../onset';
import { metricalCandidates } from '../tempo';
import { LEVEL_WEIGHTS, levelFeatures, type LevelFeatures } from '../tempo-octave';
import { chordProgression, clickTrack, drumGroove, mixSignals } from './test-signals';

type Cue = Exclude<keyof LevelFeatures, 'bpm'>;
const CUES = Object.keys(LEVEL_WEIGHTS) as Cue[];
const L2 = 0.01;
const STEPS = 3000;
const RATE = 0.5;
const TOLERANCE = 0.04;

interface Example {
  id: string;
  group: string;
  weight: number;
  rows: number[][];
  bpms: number[];
  /** Index of the candidate within 4 % of the label, −1 when none is (the comb itself missed). */
  label: number;
}

function example(id: string, group: string, weight: number, bpm: number, audio: StereoAudio): Example {
  const onsets = onsetEnvelope(bandEnergies(decimateToAnalysisRate({ sampleRate: audio.sampleRate, samples: downmixToMono(audio) })));
  const candidates = metricalCandidates(onsets);
  const features = levelFeatures(onsets, candidates);
  return {
    id,
    group,
    weight,
    rows: features.map((f) => CUES.map((cue) => f[cue])),
    bpms: candidates,
    label: candidates.findIndex((candidate) => Math.abs(candidate / bpm - 1) <= TOLERANCE),
  };
}

function loadSet(dir: string): Example[] {
  const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as { set: string; tracks: { id: string; bpm: number; genre: string }[] };
  const weight = index.set === 'full' ? 2 : 1;
  return index.tracks.map((track) =>
    example(track.id, track.genre, weight, track.bpm, decodeWav(readFileSync(path.join(dir, track.id, 'mixture.wav')))),
  );
}

/** The analysis specs' synthetic signals whose tempo the level choice decides. */
function specSignals(): Example[] {
  const out: Example[] = [];
  const add = (id: string, bpm: number, audio: StereoAudio) => out.push(example(`spec-${id}`, 'synthetic', 2, bpm, audio));
  for (const bpm of [60, 90, 128, 174, 190]) add(`click-${bpm}`, bpm, clickTrack(bpm, 20));
  add('click-123.4', 123.4, clickTrack(123.4, 30));
  add('click-48k-128', 128, clickTrack(128, 20, 48000));
  for (const [bpm, beatsPerBar] of [[72, 4], [100, 4], [140, 4], [170, 4], [96, 3], [150, 3]] as const) {
    const chords = chordProgression({ tonicPitchClass: 5, mode: 'major', seconds: 24, secondsPerChord: (60 / bpm) * beatsPerBar });
    add(`groove-${bpm}-${beatsPerBar}`, bpm, mixSignals(drumGroove({ bpm, beatsPerBar, seconds: 24 }), chords));
  }
  for (const bpm of [124, 129, 136]) {
    const chords = chordProgression({ tonicPitchClass: 2, mode: 'major', seconds: 16, secondsPerChord: 240 / bpm, sampleRate: 22050 });
    add(`kick-heavy-${bpm}`, bpm, mixSignals(drumGroove({ bpm, beatsPerBar: 4, seconds: 16, sampleRate: 22050, kickGain: 1, snareGain: 0.3 }), chords));
  }
  add('kick-snare-92', 92, drumGroove({ bpm: 92, beatsPerBar: 4, seconds: 16, sampleRate: 22050 }));
  return out;
}

/** Softmax regression on standardised cues; returns the weights in raw cue units. */
function fit(examples: Example[]): number[] {
  const rows = examples.flatMap((e) => e.rows);
  const mean = CUES.map((_, j) => rows.reduce((sum, row) => sum + row[j], 0) / rows.length);
  const scale = CUES.map((_, j) => Math.sqrt(rows.reduce((sum, row) => sum + (row[j] - mean[j]) ** 2, 0) / rows.length) || 1);
  const usable = examples.filter((e) => e.label >= 0 && e.rows.length > 1);
  const standard = usable.map((e) => e.rows.map((row) => row.map((value, j) => (value - mean[j]) / scale[j])));
  let weights = CUES.map(() => 0);
  for (let step = 0; step < STEPS; step++) {
    const gradient = weights.map((w) => L2 * w);
    usable.forEach((e, n) => {
      const scores = standard[n].map((row) => row.reduce((sum, value, j) => sum + value * weights[j], 0));
      const top = Math.max(...scores);
      const exps = scores.map((score) => Math.exp(score - top));
      const total = exps.reduce((a, b) => a + b, 0);
      standard[n].forEach((row, i) => {
        const error = exps[i] / total - (i === e.label ? 1 : 0);
        row.forEach((value, j) => (gradient[j] += (e.weight * error * value) / usable.length));
      });
    });
    weights = weights.map((w, j) => w - RATE * gradient[j]);
  }
  return weights.map((w, j) => w / scale[j]);
}

function chosen(e: Example, weights: number[]): number {
  const scores = e.rows.map((row) => row.reduce((sum, value, j) => sum + value * weights[j], 0));
  return scores.indexOf(Math.max(...scores));
}

function report(name: string, examples: Example[], weights: number[]): void {
  const misses = examples.filter((e) => chosen(e, weights) !== e.label);
  console.log(`${name}: ${examples.length - misses.length}/${examples.length}`);
  for (const e of misses) console.log(`  miss ${e.id} (${e.group}) → ${e.bpms[chosen(e, weights)] ?? 'none'} BPM, label ${e.label < 0 ? 'not a candidate' : e.bpms[e.label]}`);
}

function main(): void {
  const argv = process.argv.slice(2);
  const dirsOf = (flag: string) => argv.flatMap((arg, i) => (argv[i - 1] === flag ? [path.resolve(arg)] : []));
  const fitSets = dirsOf('--fit').map((dir) => ({ dir, examples: loadSet(dir) }));
  const spec = specSignals();
  const all = [...fitSets.flatMap((s) => s.examples), ...spec];
  const weights = fit(all);
  console.log('LEVEL_WEIGHTS = {', CUES.map((cue, j) => `${cue}: ${weights[j].toFixed(3)}`).join(', '), '}');
  for (const s of fitSets) report(path.basename(s.dir), s.examples, weights);
  report('spec signals', spec, weights);
  for (const dir of dirsOf('--check')) report(`${path.basename(dir)} (not fitted)`, loadSet(dir), weights);
  const groups = [...new Set(all.map((e) => e.group))];
  let right = 0;
  for (const group of groups) {
    const held = fit(all.filter((e) => e.group !== group));
    const inGroup = all.filter((e) => e.group === group);
    const ok = inGroup.filter((e) => chosen(e, held) === e.label).length;
    right += ok;
    if (ok < inGroup.length) console.log(`  leave-one-groove-out: ${group} ${ok}/${inGroup.length}`);
  }
  console.log(`leave-one-groove-out: ${right}/${all.length}`);
  const dump = argv[argv.indexOf('--dump') + 1];
  if (argv.includes('--dump')) {
    const checks = dirsOf('--check').flatMap((dir) => loadSet(dir).map((e) => ({ ...e, set: path.basename(dir), fitted: false })));
    const fitted = [...fitSets.flatMap((s) => s.examples.map((e) => ({ ...e, set: path.basename(s.dir) }))), ...spec.map((e) => ({ ...e, set: 'spec' }))];
    writeFileSync(dump, JSON.stringify({ cues: CUES, examples: [...fitted.map((e) => ({ ...e, fitted: true })), ...checks] }));
  }
}

main();
