/**
 * Analysis benchmark on the development and held-out synthetic sets: tempo (share within 4 %) and key (share
 * exact) against the generator's ground truth, with the gap between the sets, time signature, integrated loudness
 * against ffmpeg's EBU R128 meter, the vocal evidence behind instrumentalness (each mixture against its own
 * instrumental: drums + bass + other), and analysis time with the real-time factor (the development set's 4-minute
 * track included). Ends with a JSON summary line.
 *
 *   npm run bench:analysis -- [--set dev|heldout|heldout2|heldout3|heldout4|both|all] [--dir PATH]
 * `--set` defaults to all (development and the four held-out sets, each when generated); `--dir`
 * scores one set at that directory instead (a tempo tuning set, say).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { analyzeAudio, KEY_NAMES, type AudioAnalysis, type StereoAudio } from '@stemdeck/audio';
import { loadTrackAudio, type EvalTrack } from './eval-set/load';
import { MIXTURE_FILE } from './eval-set/meta';
import { devAndHeldout, loadSets, parseSetArgs, SET_OPTIONS_HELP, type LoadedSet } from './eval-set/sets';

const BPM_TOLERANCE = 0.04;
const GOALS = { bpmWithin4Pct: 0.95, keyExact: 0.9 };

interface TrackResult {
  id: string;
  seconds: number;
  trueBpm: number;
  bpm: number;
  bpmOk: boolean;
  trueKey: string;
  key: string;
  keyOk: boolean;
  timeSignatureOk: boolean;
  lufs: number;
  ffmpegLufs: number;
  instrumentalness: { mixture: number; instrumental: number };
  ms: number;
  realTimeFactor: number;
}

function parseArgs(argv: string[]) {
  const { sets, rest } = parseSetArgs(argv, 'all');
  if (rest.length > 0) throw new Error(`unknown argument ${rest[0]} (expected ${SET_OPTIONS_HELP})`);
  return { sets };
}

/** ffmpeg's EBU R128 meter on the mixture file: the integrated loudness of the summary it prints to stderr. */
function ffmpegLoudness(file: string): number {
  const run = spawnSync('ffmpeg', ['-nostats', '-hide_banner', '-i', file, '-af', 'ebur128', '-f', 'null', '-'], { encoding: 'utf8' });
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const match = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  if (run.status !== 0 || !match) throw new Error(`ffmpeg ebur128 failed on ${file}: ${run.error?.message ?? run.stderr.slice(-300)}`);
  return Number(match[1]);
}

function sumOf(parts: StereoAudio[]): StereoAudio {
  const length = parts[0].left.length;
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (const part of parts) {
    for (let i = 0; i < length; i++) {
      left[i] += part.left[i];
      right[i] += part.right[i];
    }
  }
  return { sampleRate: parts[0].sampleRate, left, right };
}

function timed(audio: StereoAudio): { analysis: AudioAnalysis; ms: number } {
  const start = performance.now();
  const analysis = analyzeAudio(audio);
  return { analysis, ms: performance.now() - start };
}

function keyOf(analysis: AudioAnalysis): string {
  const { key, mode } = analysis.spotifyFeatures;
  return key < 0 ? 'none' : KEY_NAMES[(mode === 1 ? 0 : 12) + key];
}

function evaluate(track: EvalTrack): TrackResult {
  const { mixture, stems } = loadTrackAudio(track);
  const seconds = mixture.left.length / mixture.sampleRate;
  const { analysis, ms } = timed(mixture);
  const f = analysis.spotifyFeatures;
  const instrumental = analyzeAudio(sumOf([stems.drums, stems.bass, stems.other])).spotifyFeatures.instrumentalness;
  return {
    id: track.id,
    seconds,
    trueBpm: track.bpm,
    bpm: analysis.bpm,
    bpmOk: Math.abs(analysis.bpm / track.bpm - 1) <= BPM_TOLERANCE,
    trueKey: track.key,
    key: keyOf(analysis),
    keyOk: f.key === track.tonicPitchClass && f.mode === (track.mode === 'major' ? 1 : 0),
    timeSignatureOk: f.time_signature === track.timeSignature,
    lufs: analysis.loudnessLufs,
    ffmpegLufs: ffmpegLoudness(path.join(track.dir, MIXTURE_FILE)),
    instrumentalness: { mixture: f.instrumentalness, instrumental },
    ms,
    realTimeFactor: ms / 1000 / seconds,
  };
}

/** Width of the track column: the longest id (held-out ids are long), at least 40. */
let idWidth = 40;

function printRow(r: TrackResult): void {
  const mark = (ok: boolean) => (ok ? '  ' : '✗ ');
  console.log(
    [
      r.id.padEnd(idWidth),
      `${String(r.trueBpm).padStart(6)} → ${r.bpm.toFixed(1).padStart(6)} ${mark(r.bpmOk)}`,
      `${r.trueKey.padEnd(9)} → ${r.key.padEnd(9)} ${mark(r.keyOk)}`,
      `${r.lufs.toFixed(1).padStart(6)} LUFS (ffmpeg ${r.ffmpegLufs.toFixed(1)})`,
      `instr. ${r.instrumentalness.mixture.toFixed(2)} / ${r.instrumentalness.instrumental.toFixed(2)}`,
      `${r.ms.toFixed(0).padStart(5)} ms  RTF ${r.realTimeFactor.toFixed(4)}`,
    ].join('  '),
  );
}

const share = (results: TrackResult[], ok: (r: TrackResult) => boolean) => results.filter(ok).length / results.length;
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

function main(): void {
  const sets = loadSets(parseArgs(process.argv.slice(2)).sets);
  if (sets.length === 0) throw new Error('no evaluation set to score (see above for how to generate one)');
  // One untimed run first, so that the timings are of optimised code rather than of the JIT warming up.
  const coldMs = timed(loadTrackAudio(sets[0].tracks[0]).mixture).ms;
  console.log(`first (cold) analysis ${coldMs.toFixed(0)} ms`);
  idWidth = Math.max(40, ...sets.flatMap((set) => set.tracks.map((t) => t.id.length)));
  const summaries = sets.map((set) => scoreSet(set));

  const pct = (value: number) => `${(100 * value).toFixed(0)} %`;
  const pair = devAndHeldout(summaries);
  console.log('');
  for (const s of summaries) {
    console.log(`${s.label.padEnd(12)} tempo within 4 % ${pct(s.bpmWithin4Pct).padStart(5)}   key exact ${pct(s.keyExact).padStart(5)}   (${s.tracks} tracks)`);
  }
  const gap = pair
    ? { bpmWithin4Pct: round(pair.dev.bpmWithin4Pct - pair.heldout.bpmWithin4Pct, 3), keyExact: round(pair.dev.keyExact - pair.heldout.keyExact, 3) }
    : null;
  if (gap) {
    const points = (value: number) => `${(100 * value).toFixed(0)} points`;
    console.log(`gap (development − held-out): tempo ${points(gap.bpmWithin4Pct)}, key ${points(gap.keyExact)}`);
  } else console.log('gap (development − held-out): needs both sets (--set both)');
  console.log(JSON.stringify({ benchmark: 'analysis', sets: summaries, gap, coldMs: round(coldMs, 0) }));
}

/** Analyses every track of one set, prints its table and figures, and returns its summary. */
function scoreSet(set: LoadedSet) {
  const { tracks, dir } = set;
  console.log(`\n${set.label} set: ${tracks.length} tracks from ${dir}\n`);
  console.log(`${'track'.padEnd(idWidth)}  ${'BPM true → est'.padEnd(17)}  ${'key true → est'.padEnd(23)}  loudness`);
  const results = tracks.map((track) => {
    const result = evaluate(track);
    printRow(result);
    return result;
  });

  const bpmWithin4Pct = share(results, (r) => r.bpmOk);
  const keyExact = share(results, (r) => r.keyOk);
  const loudnessDiffs = results.map((r) => Math.abs(r.lufs - r.ffmpegLufs));
  const longest = results.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const vocal = {
    mixtureMean: round(mean(results.map((r) => r.instrumentalness.mixture)), 3),
    instrumentalMean: round(mean(results.map((r) => r.instrumentalness.instrumental)), 3),
    instrumentalHigher: share(results, (r) => r.instrumentalness.instrumental > r.instrumentalness.mixture),
  };
  const pct = (value: number) => `${(100 * value).toFixed(0)} %`;
  console.log(`\n${set.label}: BPM within 4 %: ${pct(bpmWithin4Pct)} (goal ≥ ${pct(GOALS.bpmWithin4Pct)})`);
  console.log(`${set.label}: key exact:      ${pct(keyExact)} (goal ≥ ${pct(GOALS.keyExact)})`);
  console.log(`${set.label}: time signature: ${pct(share(results, (r) => r.timeSignatureOk))} (all tracks are in 4)`);
  console.log(`${set.label}: loudness vs ffmpeg ebur128: mean |Δ| ${mean(loudnessDiffs).toFixed(2)} LU, max ${Math.max(...loudnessDiffs).toFixed(2)} LU`);
  console.log(
    `${set.label}: instrumentalness: mixtures ${vocal.mixtureMean}, their instrumentals ${vocal.instrumentalMean}; ` +
      `instrumental higher in ${pct(vocal.instrumentalHigher)} of tracks`,
  );
  console.log(
    `${set.label}: analysis time: mean ${mean(results.map((r) => r.ms)).toFixed(0)} ms per track, ` +
      `mean RTF ${mean(results.map((r) => r.realTimeFactor)).toFixed(4)}; ` +
      `longest (${longest.seconds.toFixed(0)} s) ${longest.ms.toFixed(0)} ms, RTF ${longest.realTimeFactor.toFixed(4)}`,
  );
  return {
    name: set.name,
    label: set.label,
    dir,
    tracks: results.length,
    bpmWithin4Pct: round(bpmWithin4Pct, 3),
    keyExact: round(keyExact, 3),
    goalsMet: bpmWithin4Pct >= GOALS.bpmWithin4Pct && keyExact >= GOALS.keyExact,
    timeSignatureExact: round(share(results, (r) => r.timeSignatureOk), 3),
    loudnessVsFfmpegLu: { mean: round(mean(loudnessDiffs), 2), max: round(Math.max(...loudnessDiffs), 2) },
    instrumentalness: vocal,
    meanMs: round(mean(results.map((r) => r.ms)), 0),
    meanRealTimeFactor: round(mean(results.map((r) => r.realTimeFactor)), 5),
    longest: { seconds: round(longest.seconds, 1), ms: round(longest.ms, 0), realTimeFactor: round(longest.realTimeFactor, 5) },
    misses: results.filter((r) => !r.bpmOk || !r.keyOk).map(({ id, bpm, key }) => ({ id, bpm, key })),
  };
}

main();
