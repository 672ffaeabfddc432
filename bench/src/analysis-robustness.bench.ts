/**
 * Robustness of tempo and key on variations of development material — the only material the analysis may be
 * tuned on. Each track of the given sets (default: the development set) is analysed as mixed and in variants
 * that imitate what other productions do differently, built from its own ground-truth stems:
 *   - `no-drums`: vocals + bass + other (key from the harmonic parts alone);
 *   - `kick-light` / `kick-heavy`: the drum stem high-passed at ~150 Hz (a thin kick, as a kit with a small
 *     kick drum) or its highs turned down (snare and hats quiet, the kick loud);
 *   - `vocals-up`, `bass-down`: other stem levels;
 *   - `resampled ±k`: the whole mixture played k semitones faster or slower (tempo × 2^(k/12), key moved by k
 *     semitones), which moves each song to tempi and keys the set does not have.
 * It prints, per variant, the share of tempi within 4 % (octave errors count as wrong) and of exact keys, then
 * every miss. Never run this on the held-out set: that one is measured once, by bench:analysis.
 *
 *   node bench/dist/analysis-robustness.bench.js [--dir DIR]...
 */
import { analyzeAudio, KEY_NAMES, type StereoAudio } from '@stemdeck/audio';
import { loadEvalSet, loadTrackAudio, type EvalTrack } from './eval-set/load';
import { DEFAULT_EVAL_SET_DIR } from './eval-set/meta';

const BPM_TOLERANCE = 0.04;
const MIN_BPM = 60;
const MAX_BPM = 200;
/** Semitone shifts tried for each track; those taking the tempo outside 62–195 BPM are skipped. */
const SHIFTS = [-4, 3, 7];

interface Variant {
  name: string;
  audio: StereoAudio;
  bpm: number;
  tonicPitchClass: number;
}

interface Outcome {
  track: string;
  variant: string;
  trueBpm: number;
  bpm: number;
  bpmOk: boolean;
  trueKey: string;
  key: string;
  keyOk: boolean;
}

function parseArgs(argv: string[]): { dirs: string[] } {
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') dirs.push(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]} (expected --dir PATH, repeatable)`);
  }
  return { dirs: dirs.length > 0 ? dirs : [DEFAULT_EVAL_SET_DIR] };
}

/** Σ gain·part, sample by sample. */
function mix(parts: [StereoAudio, number][]): StereoAudio {
  const length = parts[0][0].left.length;
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (const [part, gain] of parts) {
    for (let i = 0; i < length; i++) {
      left[i] += gain * part.left[i];
      right[i] += gain * part.right[i];
    }
  }
  return { sampleRate: parts[0][0].sampleRate, left, right };
}

/** One-pole filter pair: the low-passed signal, and the rest (the high-passed one), per channel. */
function split(audio: StereoAudio, cutoffHz: number): { low: StereoAudio; high: StereoAudio } {
  const a = Math.exp((-2 * Math.PI * cutoffHz) / audio.sampleRate);
  const channel = (x: Float32Array) => {
    const low = new Float32Array(x.length);
    const high = new Float32Array(x.length);
    // Two cascaded one-pole low-passes (12 dB/octave); high = x − low.
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < x.length; i++) {
      s1 = (1 - a) * x[i] + a * s1;
      s2 = (1 - a) * s1 + a * s2;
      low[i] = s2;
      high[i] = x[i] - s2;
    }
    return { low, high };
  };
  const l = channel(audio.left);
  const r = channel(audio.right);
  return {
    low: { sampleRate: audio.sampleRate, left: l.low, right: r.low },
    high: { sampleRate: audio.sampleRate, left: l.high, right: r.high },
  };
}

/** Played `rate` times faster (linear interpolation): tempo × rate, pitch up by log2(rate) octaves. */
function resample(audio: StereoAudio, rate: number): StereoAudio {
  const length = Math.floor((audio.left.length - 1) / rate);
  const channel = (x: Float32Array) => {
    const y = new Float32Array(length);
    for (let n = 0; n < length; n++) {
      const position = n * rate;
      const i = Math.floor(position);
      const frac = position - i;
      y[n] = x[i] * (1 - frac) + x[i + 1] * frac;
    }
    return y;
  };
  return { sampleRate: audio.sampleRate, left: channel(audio.left), right: channel(audio.right) };
}

function variantsOf(track: EvalTrack): Variant[] {
  const { mixture, stems } = loadTrackAudio(track);
  const { vocals, drums, bass, other } = stems;
  const same = (name: string, audio: StereoAudio): Variant => ({ name, audio, bpm: track.bpm, tonicPitchClass: track.tonicPitchClass });
  const drumBands = split(drums, 150);
  const variants = [
    same('mix', mixture),
    same('no-drums', mix([[vocals, 1], [bass, 1], [other, 1]])),
    same('kick-light', mix([[vocals, 1], [bass, 1], [other, 1], [drumBands.high, 1]])),
    same('kick-heavy', mix([[vocals, 1], [bass, 1], [other, 1], [drumBands.low, 1.5], [drumBands.high, 0.35]])),
    same('vocals-up', mix([[vocals, 2], [drums, 1], [bass, 1], [other, 1]])),
    same('bass-down', mix([[vocals, 1], [drums, 1], [bass, 0.4], [other, 1]])),
  ];
  for (const shift of SHIFTS) {
    const rate = 2 ** (shift / 12);
    const bpm = track.bpm * rate;
    if (bpm < 62 || bpm > 195) continue;
    variants.push({ name: `resampled ${shift > 0 ? '+' : ''}${shift}`, audio: resample(mixture, rate), bpm, tonicPitchClass: (track.tonicPitchClass + shift + 12) % 12 });
  }
  return variants;
}

function keyName(tonicPitchClass: number, major: boolean): string {
  return KEY_NAMES[(major ? 0 : 12) + tonicPitchClass];
}

function main(): void {
  const { dirs } = parseArgs(process.argv.slice(2));
  const outcomes: Outcome[] = [];
  let tracks = 0;
  const started = performance.now();
  for (const dir of dirs) {
    for (const track of loadEvalSet(dir)) {
      tracks++;
      for (const variant of variantsOf(track)) {
        const analysis = analyzeAudio(variant.audio);
        const f = analysis.spotifyFeatures;
        const major = track.mode === 'major';
        outcomes.push({
          track: track.id,
          variant: variant.name,
          trueBpm: Math.round(variant.bpm * 10) / 10,
          bpm: analysis.bpm,
          bpmOk: Math.abs(analysis.bpm / variant.bpm - 1) <= BPM_TOLERANCE && variant.bpm >= MIN_BPM && variant.bpm <= MAX_BPM,
          trueKey: keyName(variant.tonicPitchClass, major),
          key: f.key < 0 ? 'none' : keyName(f.key, f.mode === 1),
          keyOk: f.key === variant.tonicPitchClass && f.mode === (major ? 1 : 0),
        });
      }
    }
  }
  const pct = (part: Outcome[], ok: (o: Outcome) => boolean) => `${((100 * part.filter(ok).length) / part.length).toFixed(0)} %`.padStart(5);
  console.log(`${tracks} tracks from ${dirs.join(', ')} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  console.log(`${'variant'.padEnd(14)} ${'n'.padStart(4)}  tempo  key`);
  const names = [...new Set(outcomes.map((o) => o.variant))];
  for (const name of [...names, 'all']) {
    const part = name === 'all' ? outcomes : outcomes.filter((o) => o.variant === name);
    console.log(`${name.padEnd(14)} ${String(part.length).padStart(4)}  ${pct(part, (o) => o.bpmOk)}  ${pct(part, (o) => o.keyOk)}`);
  }
  console.log('\nmisses:');
  for (const o of outcomes.filter((o) => !o.bpmOk || !o.keyOk)) {
    const tempo = o.bpmOk ? '' : `tempo ${o.trueBpm} → ${o.bpm}`;
    const key = o.keyOk ? '' : `key ${o.trueKey} → ${o.key}`;
    console.log(`  ${o.track.padEnd(38)} ${o.variant.padEnd(13)} ${tempo.padEnd(24)} ${key}`);
  }
  const share = (ok: (o: Outcome) => boolean) => Number((outcomes.filter(ok).length / outcomes.length).toFixed(3));
  console.log(JSON.stringify({ benchmark: 'analysis-robustness', dirs, tracks, analyses: outcomes.length, bpmWithin4Pct: share((o) => o.bpmOk), keyExact: share((o) => o.keyOk) }));
}

main();
