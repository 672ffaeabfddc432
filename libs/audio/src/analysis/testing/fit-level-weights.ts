/**
 * Fits LEVEL_MODEL (tempo-octave.ts): a softmax over the metrical-level candidates of labelled songs, each
 * candidate scored by a linear term and four tanh units over its standardised cues (Adam, 1 500 full-batch
 * steps, L2 0.01, a fixed seed: the same data gives the same model).
 * Training material only (never a held-out set); prints the weights, the accuracy on each set, and the accuracy
 * with each kind of groove left out of the fit in turn (how the model does on a groove it has not seen). `--dump`
 * writes every example's cues, candidates and label as JSON, for trying other cues or models outside this script.
 *
 *   npx esbuild libs/audio/src/analysis/testing/fit-level-weights.ts --bundle --platform=node \
 *     --outfile=/tmp/fit-level-weights.js && node /tmp/fit-level-weights.js \
 *     --fit .data/eval-set --fit .data/tempo-set-1 --fit .data/tempo-set-2 --fit .data/wide-set-1 --fit .data/wide-set-4 \
 *     [--check .data/tempo-set-3 --check .data/wide-set-2 --check .data/wide-set-3] [--dump examples.json] [--shipped]
 *
 * `--shipped` prints the accuracy of the LEVEL_MODEL in tempo-octave.ts instead of the one just fitted (to check
 * that what ships is what was fitted).
 *
 * The development set (index set "full") and the synthetic signals of the analysis specs count twice in the fit:
 * the development set must stay exact, and the specs' clean click tracks and grooves are unlike any mix.
 * A cue that could not be measured (NaN: the harmony of drums alone) counts at its mean, as in levelScore.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeWav } from '../../io/wav';
import type { StereoAudio } from '../../types';
import { bandEnergies } from '../bands';
import { decimateToAnalysisRate, downmixToMono } from '../mono-signal';
import { harmonicChange } from '../harmony';
import { onsetEnvelope } from '../onset';
import { findPartials, partialsFramesPerSecond } from '../partials';
import { metricalCandidates } from '../tempo';
import { bestLevel, LEVEL_CUES, LEVEL_MODEL, levelFeatures, standardised, type LevelFeatures, type LevelModel } from '../tempo-octave';
import { chordProgression, clickTrack, drumGroove, GROOVE_BARS, mixSignals, patternGroove } from './test-signals';

const L2 = 0.01;
const STEPS = 1500;
const RATE = 0.01;
const UNITS = 4;
const SEED = 16;
const TOLERANCE = 0.04;

interface Example {
  id: string;
  group: string;
  weight: number;
  features: LevelFeatures[];
  rows: number[][];
  bpms: number[];
  /** Index of the candidate within 4 % of the label, −1 when none is (the comb itself missed). */
  label: number;
}

function example(id: string, group: string, weight: number, bpm: number, audio: StereoAudio): Example {
  const signal = decimateToAnalysisRate({ sampleRate: audio.sampleRate, samples: downmixToMono(audio) });
  const onsets = onsetEnvelope(bandEnergies(signal));
  const candidates = metricalCandidates(onsets);
  const features = levelFeatures(onsets, harmonicChange(findPartials(signal), partialsFramesPerSecond(signal.sampleRate)), candidates);
  return {
    id,
    group,
    weight,
    features,
    rows: features.map((f) => LEVEL_CUES.map((cue) => f[cue])),
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
  // Drums alone (no held notes: the harmony cues unmeasured), the grooves of tempo.spec.ts's level tests.
  for (const bpm of [136, 143, 158]) add(`trap-${bpm}`, bpm, patternGroove({ bpm, seconds: 20, ...GROOVE_BARS.trap }));
  for (const bpm of [70, 78, 86]) add(`one-drop-${bpm}`, bpm, patternGroove({ bpm, seconds: 20, ...GROOVE_BARS.oneDrop }));
  return out;
}

/** A small seeded generator (mulberry32) and normal draws from it (Box–Muller). */
function normalDraws(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Fits the model on these examples: softmax cross-entropy over each song's candidates, weighted per example. */
function fit(examples: Example[]): LevelModel {
  const cues = LEVEL_CUES.length;
  const rows = examples.flatMap((e) => e.rows);
  // Over the songs where each cue was measured (a NaN cue, harmony in drums alone, counts at the mean).
  const measured = LEVEL_CUES.map((_, j) => rows.map((row) => row[j]).filter((value) => !Number.isNaN(value)));
  const mean = measured.map((values) => values.reduce((sum, value) => sum + value, 0) / values.length);
  const scale = measured.map((values, j) => Math.sqrt(values.reduce((sum, value) => sum + (value - mean[j]) ** 2, 0) / values.length) || 1);
  const usable = examples.filter((e) => e.label >= 0 && e.rows.length > 1);
  const standard = usable.map((e) => e.rows.map((row) => row.map((value, j) => standardised(value, mean[j], scale[j]))));
  const draw = normalDraws(SEED);
  // All parameters in one flat vector: linear (cues), hidden (cues × units), hidden bias (units), output (units).
  const at = { linear: 0, hidden: cues, bias: cues + cues * UNITS, output: cues + cues * UNITS + UNITS };
  const size = at.output + UNITS;
  const params = Array.from({ length: size }, (_, i) => (i >= at.hidden && i < at.bias) || i >= at.output ? 0.3 * draw() : 0);
  const m = new Array<number>(size).fill(0);
  const v = new Array<number>(size).fill(0);
  for (let step = 1; step <= STEPS; step++) {
    const gradient = params.map((p, i) => (i >= at.bias && i < at.output ? 0 : L2 * p));
    usable.forEach((e, n) => {
      const units = standard[n].map((x) =>
        Array.from({ length: UNITS }, (_, u) => Math.tanh(x.reduce((sum, value, j) => sum + value * params[at.hidden + j * UNITS + u], params[at.bias + u]))),
      );
      const scores = standard[n].map((x, i) => x.reduce((sum, value, j) => sum + value * params[at.linear + j], 0) + units[i].reduce((sum, h, u) => sum + h * params[at.output + u], 0));
      const top = Math.max(...scores);
      const exps = scores.map((score) => Math.exp(score - top));
      const total = exps.reduce((a, b) => a + b, 0);
      standard[n].forEach((x, i) => {
        const error = ((exps[i] / total - (i === e.label ? 1 : 0)) * e.weight) / usable.length;
        x.forEach((value, j) => (gradient[at.linear + j] += error * value));
        units[i].forEach((h, u) => {
          gradient[at.output + u] += error * h;
          const back = error * params[at.output + u] * (1 - h * h);
          gradient[at.bias + u] += back;
          x.forEach((value, j) => (gradient[at.hidden + j * UNITS + u] += back * value));
        });
      });
    });
    gradient.forEach((g, i) => {
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      params[i] -= (RATE * (m[i] / (1 - 0.9 ** step))) / (Math.sqrt(v[i] / (1 - 0.999 ** step)) + 1e-8);
    });
  }
  const round = (value: number) => Number(value.toFixed(4));
  return {
    mean: mean.map(round),
    // A cue that hardly varies must not round to a zero scale (the score would divide by it).
    scale: scale.map((value) => Math.max(1e-4, round(value))),
    linear: params.slice(at.linear, at.hidden).map(round),
    hidden: LEVEL_CUES.map((_, j) => params.slice(at.hidden + j * UNITS, at.hidden + (j + 1) * UNITS).map(round)),
    hiddenBias: params.slice(at.bias, at.output).map(round),
    output: params.slice(at.output).map(round),
  };
}

/** The candidate the model picks, by the analysis's own choice. */
const chosen = (e: Example, model: LevelModel): number => bestLevel(e.features, model);

function report(name: string, examples: Example[], model: LevelModel): void {
  const misses = examples.filter((e) => chosen(e, model) !== e.label);
  console.log(`${name}: ${examples.length - misses.length}/${examples.length}`);
  for (const e of misses) console.log(`  miss ${e.id} (${e.group}) → ${e.bpms[chosen(e, model)] ?? 'none'} BPM, label ${e.label < 0 ? 'not a candidate' : e.bpms[e.label]}`);
}

function main(): void {
  const argv = process.argv.slice(2);
  const dirsOf = (flag: string) => argv.flatMap((arg, i) => (argv[i - 1] === flag ? [path.resolve(arg)] : []));
  const fitSets = dirsOf('--fit').map((dir) => ({ dir, examples: loadSet(dir) }));
  const checkSets = dirsOf('--check').map((dir) => ({ dir, examples: loadSet(dir) }));
  const spec = specSignals();
  const all = [...fitSets.flatMap((s) => s.examples), ...spec];
  const model = fit(all);
  console.log(`LEVEL_MODEL = ${JSON.stringify(model)}`);
  const shipped = argv.includes('--shipped');
  const scored = shipped ? LEVEL_MODEL : model;
  if (shipped) console.log('accuracy of the shipped LEVEL_MODEL:');
  for (const s of fitSets) report(path.basename(s.dir), s.examples, scored);
  report('spec signals', spec, scored);
  for (const s of checkSets) report(`${path.basename(s.dir)} (not fitted)`, s.examples, scored);
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
  if (argv.includes('--dump')) {
    const plain = ({ features: _features, ...rest }: Example, set: string, fitted: boolean) => ({ ...rest, set, fitted });
    const examples = [
      ...fitSets.flatMap((s) => s.examples.map((e) => plain(e, path.basename(s.dir), true))),
      ...spec.map((e) => plain(e, 'spec', true)),
      ...checkSets.flatMap((s) => s.examples.map((e) => plain(e, path.basename(s.dir), false))),
    ];
    writeFileSync(argv[argv.indexOf('--dump') + 1], JSON.stringify({ cues: LEVEL_CUES, examples }));
  }
}

main();
