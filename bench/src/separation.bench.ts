/**
 * Separation benchmark: global SDR per stem for an engine, a plain HPSS baseline and the oracle ratio mask
 * (upper bound for STFT masking) on the development and the held-out synthetic sets, with the gap between
 * them, then the engine's real-time factor on a 4-minute track and peak RSS. Ends with a JSON summary line.
 *
 *   npm run bench:separation -- [--engine fast|fast-stream|hybrid|quality|network] [--set dev|heldout|both] [--dir PATH]
 * `--set` defaults to both; `--dir` scores one set at that directory instead.
 * `fast-stream` runs the fast engine the way the media service does: the mixture fed in 1 s chunks and
 * the stems collected as they come (separateFastStream).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  bundledEngineSpec,
  chunksOf,
  createFastSeparator,
  OnnxSeparator,
  separateFastStream,
  decodeWav,
  remedianFilter,
  STEM_TYPES,
  StereoStft,
  type Separator,
  type StemSet,
  type StemType,
  type StereoAudio,
  type StereoSpectrogram,
} from '@stemdeck/audio';
import { globalSdr } from '@stemdeck/audio';
import { loadTrackAudio, type EvalTrack } from './eval-set/load';
import { MIXTURE_FILE } from './eval-set/meta';
import { devAndHeldout, loadSets, parseSetArgs, SET_OPTIONS_HELP, type LoadedSet, type SetRequest } from './eval-set/sets';

type StemScores = Record<StemType, number> & { mean: number };
type Method = 'engine' | 'hpss' | 'oracle';

/** Tracks at least this long are timed, not scored (they would only lengthen the run). */
const LONG_TRACK_SECONDS = 120;
const SPEED_SECONDS = 240;
/** STFT of the reference methods: 46 ms windows, 75 % overlap at 44.1 kHz. */
const REFERENCE_FFT = 2048;
const REFERENCE_HOP = 512;
/** HPSS kernels: 27 frames (≈ 0.3 s) along time, 27 bins (≈ 580 Hz) along frequency. */
const HPSS_STAGES = [3, 3, 3];

function parseArgs(argv: string[]): { engine: string; sets: SetRequest[] } {
  const { sets, rest } = parseSetArgs(argv);
  const args = { engine: 'fast', sets };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--engine') args.engine = rest[++i];
    else throw new Error(`unknown argument ${rest[i]} (expected --engine NAME, ${SET_OPTIONS_HELP})`);
  }
  return args;
}

function createEngine(name: string): Separator {
  if (name === 'fast') return createFastSeparator();
  if (name === 'fast-stream') return streamedFast;
  // The model engines as the media service runs them: the bundled network at each engine's setting.
  if (name === 'hybrid' || name === 'quality') return new OnnxSeparator(name, bundledEngineSpec(name));
  // The bundled network alone (hybrid's windows, no blend with the fast engine): what the network itself does.
  if (name === 'network') return new OnnxSeparator('hybrid', { ...bundledEngineSpec('hybrid'), fastBlend: undefined });
  throw new Error(`engine '${name}' is not benchmarked (available: fast, fast-stream, hybrid, quality, network)`);
}

/** The streamed fast engine behind the whole-array interface: chunks in, stems gathered as they come out. */
const streamedFast: Separator = {
  engine: 'fast',
  async separate(mixture: StereoAudio): Promise<StemSet> {
    const length = mixture.left.length;
    const stems = Object.fromEntries(
      STEM_TYPES.map((type) => [type, { sampleRate: mixture.sampleRate, left: new Float32Array(length), right: new Float32Array(length) }]),
    ) as StemSet;
    let at = 0;
    await separateFastStream(chunksOf(mixture), async (part) => {
      for (const type of STEM_TYPES) {
        stems[type].left.set(part[type].left, at);
        stems[type].right.set(part[type].right, at);
      }
      at += part.vocals.left.length;
    });
    return stems;
  },
};

function score(reference: StemSet, estimate: StemSet): StemScores {
  const scores = {} as StemScores;
  for (const stem of STEM_TYPES) scores[stem] = globalSdr(reference[stem], estimate[stem]);
  scores.mean = STEM_TYPES.reduce((sum, stem) => sum + scores[stem], 0) / STEM_TYPES.length;
  return scores;
}

function meanScores(all: StemScores[]): StemScores {
  const mean = {} as StemScores;
  for (const key of [...STEM_TYPES, 'mean'] as const) mean[key] = all.reduce((sum, s) => sum + s[key], 0) / all.length;
  return mean;
}

function analyze(stft: StereoStft, audio: StereoAudio): StereoSpectrogram {
  const spec = stft.createSpectrogram(0, stft.frameCount(audio.left.length));
  stft.analyze(audio, spec);
  return spec;
}

function silentLike(audio: StereoAudio): StereoAudio {
  const length = audio.left.length;
  return { sampleRate: audio.sampleRate, left: new Float32Array(length), right: new Float32Array(length) };
}

function synthesize(stft: StereoStft, spec: StereoSpectrogram, masks: { left: Float32Array; right: Float32Array }, like: StereoAudio): StereoAudio {
  const out = silentLike(like);
  stft.synthesize(spec, 0, spec.frames, [masks], [out], 0, out.left.length);
  return out;
}

/**
 * Plain HPSS (FitzGerald 2010): median along time → harmonic, median along frequency → percussive,
 * Wiener-style soft masks on the summed power of both channels; percussive → drums, harmonic → other,
 * vocals and bass silent.
 */
function hpssBaseline(mixture: StereoAudio): StemSet {
  const stft = new StereoStft(REFERENCE_FFT, REFERENCE_HOP);
  const spec = analyze(stft, mixture);
  const cells = spec.frames * spec.bins;
  const power = new Float32Array(cells);
  for (let i = 0; i < cells; i++) power[i] = spec.leftRe[i] ** 2 + spec.leftIm[i] ** 2 + spec.rightRe[i] ** 2 + spec.rightIm[i] ** 2;
  const harmonic = new Float32Array(cells);
  const percussive = new Float32Array(cells);
  const scratch = new Float32Array(cells);
  remedianFilter(power, harmonic, scratch, spec.frames, spec.bins, 'frames', HPSS_STAGES);
  remedianFilter(power, percussive, scratch, spec.frames, spec.bins, 'bins', HPSS_STAGES);
  for (let i = 0; i < cells; i++) {
    const h = harmonic[i] ** 2;
    const p = percussive[i] ** 2;
    percussive[i] = h + p > 0 ? p / (h + p) : 0.5;
    harmonic[i] = 1 - percussive[i];
  }
  return {
    vocals: silentLike(mixture),
    drums: synthesize(stft, spec, { left: percussive, right: percussive }, mixture),
    bass: silentLike(mixture),
    other: synthesize(stft, spec, { left: harmonic, right: harmonic }, mixture),
  };
}

/** Oracle ratio mask: each stem's share of the summed stem power in each cell, per channel, from the truth. */
function oracleRatioMask(mixture: StereoAudio, truth: StemSet): StemSet {
  const stft = new StereoStft(REFERENCE_FFT, REFERENCE_HOP);
  const mix = analyze(stft, mixture);
  const cells = mix.frames * mix.bins;
  const powers = {} as Record<StemType, { left: Float32Array; right: Float32Array }>;
  const total = { left: new Float32Array(cells), right: new Float32Array(cells) };
  for (const stem of STEM_TYPES) {
    const spec = analyze(stft, truth[stem]);
    const left = new Float32Array(cells);
    const right = new Float32Array(cells);
    for (let i = 0; i < cells; i++) {
      left[i] = spec.leftRe[i] ** 2 + spec.leftIm[i] ** 2;
      right[i] = spec.rightRe[i] ** 2 + spec.rightIm[i] ** 2;
      total.left[i] += left[i];
      total.right[i] += right[i];
    }
    powers[stem] = { left, right };
  }
  const out = {} as StemSet;
  for (const stem of STEM_TYPES) {
    const { left, right } = powers[stem];
    for (let i = 0; i < cells; i++) {
      left[i] = total.left[i] > 0 ? left[i] / total.left[i] : 0.25;
      right[i] = total.right[i] > 0 ? right[i] / total.right[i] : 0.25;
    }
    out[stem] = synthesize(stft, mix, { left, right }, mixture);
  }
  return out;
}

/** A `seconds`-long mixture: the given one repeated (for timing when the set has no long track). */
function repeatTo(audio: StereoAudio, seconds: number): StereoAudio {
  const length = Math.round(seconds * audio.sampleRate);
  const out = { sampleRate: audio.sampleRate, left: new Float32Array(length), right: new Float32Array(length) };
  for (let start = 0; start < length; start += audio.left.length) {
    const count = Math.min(audio.left.length, length - start);
    out.left.set(audio.left.subarray(0, count), start);
    out.right.set(audio.right.subarray(0, count), start);
  }
  return out;
}

const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
const fixed = (value: number, width = 7) => value.toFixed(2).padStart(width);

/** Width of the first column: the longest track id (held-out ids are long), at least 38. */
let labelWidth = 38;

function printRow(label: string, method: string, scores: StemScores): void {
  const cells = [...STEM_TYPES, 'mean' as const].map((key) => fixed(scores[key])).join(' ');
  console.log(`${label.padEnd(labelWidth)} ${method.padEnd(8)} ${cells}`);
}

function printHeader(first: string): void {
  console.log(`${first.padEnd(labelWidth)} ${'method'.padEnd(8)} ${[...STEM_TYPES, 'mean'].map((s) => s.padStart(7)).join(' ')}`);
}

interface SetResult {
  name: string;
  label: string;
  dir: string;
  tracks: number;
  sdr: Record<Method, StemScores>;
  perTrack: { id: string; engine: StemScores; hpss: StemScores; oracle: StemScores }[];
}

const METHODS: Method[] = ['engine', 'hpss', 'oracle'];

async function main(): Promise<void> {
  const { engine: engineName, sets: requested } = parseArgs(process.argv.slice(2));
  const engine = createEngine(engineName);
  const sets = loadSets(requested);
  if (sets.length === 0) throw new Error('no evaluation set to score (see above for how to generate one)');
  const scoredOf = (set: LoadedSet) => set.tracks.filter((t) => t.durationSeconds < LONG_TRACK_SECONDS);
  // The 4-minute song lives in the development set; a set without one is timed on a repeated track.
  const longTrack = sets.flatMap((set) => set.tracks).find((t) => t.durationSeconds >= LONG_TRACK_SECONDS);
  const firstScored = scoredOf(sets[0])[0];
  console.log(`separation bench: engine ${engineName}; sets: ${sets.map((set) => `${set.label} (${scoredOf(set).length} tracks, ${set.dir})`).join(', ')}`);

  // Timed first, so that the peak RSS read right after it is the separation's, not the scoring's.
  const speed = await timeEngine(engine, longTrack, firstScored);
  console.log(
    `speed: ${speed.source}, ${speed.audioSeconds.toFixed(1)} s of audio in ${speed.wallSeconds.toFixed(2)} s wall ` +
      `(${speed.cpuSeconds.toFixed(2)} s CPU over all threads) → ${speed.realTimeFactor.toFixed(1)}× real time; ` +
      `peak RSS ${speed.peakRssMb.toFixed(0)} MB`,
  );

  if (engineName === 'fast') {
    const same = await workersMatchInThread(firstScored);
    console.log(`worker threads and in-thread separation give identical stems: ${same ? 'yes' : 'NO'}`);
  }
  if (engineName === 'fast-stream') {
    const { mixture } = loadTrackAudio(firstScored);
    const [whole, streamed] = [await createFastSeparator().separate(mixture), await streamedFast.separate(mixture)];
    const same = STEM_TYPES.every((stem) =>
      (['left', 'right'] as const).every((channel) => Buffer.from(whole[stem][channel].buffer).equals(Buffer.from(streamed[stem][channel].buffer))),
    );
    console.log(`streamed and whole-array separation give identical stems: ${same ? 'yes' : 'NO'}`);
  }

  labelWidth = Math.max(38, ...sets.flatMap((set) => scoredOf(set).map((t) => t.id.length)));
  const results: SetResult[] = [];
  for (const set of sets) {
    const scored = scoredOf(set);
    console.log(`\n${set.label} set: ${scored.length} tracks from ${set.dir}`);
    printHeader('track');
    const perTrack: SetResult['perTrack'] = [];
    for (const track of scored) {
      const { mixture, stems } = loadTrackAudio(track);
      const row = {
        id: track.id,
        engine: score(stems, await engine.separate(mixture)),
        hpss: score(stems, hpssBaseline(mixture)),
        oracle: score(stems, oracleRatioMask(mixture, stems)),
      };
      printRow(track.id, engineName, row.engine);
      printRow('', 'hpss', row.hpss);
      printRow('', 'oracle', row.oracle);
      perTrack.push(row);
    }
    const sdr = Object.fromEntries(METHODS.map((m) => [m, meanScores(perTrack.map((row) => row[m]))])) as SetResult['sdr'];
    printMeans(`${set.label}: mean of ${scored.length}`, engineName, sdr);
    results.push({ name: set.name, label: set.label, dir: set.dir, tracks: scored.length, sdr, perTrack });
  }

  // Every set's means together, then how much is lost on material the engine was not tuned on.
  console.log('\nmean global SDR per stem (dB)');
  printHeader('set');
  for (const result of results) printMeans(`${result.label} (${result.tracks})`, engineName, result.sdr);
  const pair = devAndHeldout(results);
  const gap = pair ? (Object.fromEntries(METHODS.map((m) => [m, difference(pair.dev.sdr[m], pair.heldout.sdr[m])])) as Record<Method, StemScores>) : null;
  if (gap) printMeans('gap (development − held-out)', engineName, gap);
  else console.log('gap (development − held-out): needs both sets (--set both)');

  const summary = { engine: engineName, sets: results, gap, speed, peakRssMb: peakRssMb() };
  console.log(`peak RSS over the whole run (scoring included): ${summary.peakRssMb.toFixed(0)} MB`);
  console.log(JSON.stringify(summary));
}

function printMeans(label: string, engineName: string, sdr: Record<Method, StemScores>): void {
  printRow(label, engineName, sdr.engine);
  printRow('', 'hpss', sdr.hpss);
  printRow('', 'oracle', sdr.oracle);
}

function difference(a: StemScores, b: StemScores): StemScores {
  const out = {} as StemScores;
  for (const key of [...STEM_TYPES, 'mean'] as const) out[key] = a[key] - b[key];
  return out;
}

/** The fast engine must not depend on how many threads ran its segments. */
async function workersMatchInThread(track: EvalTrack): Promise<boolean> {
  const { mixture } = loadTrackAudio(track);
  const [threaded, inThread] = [await createFastSeparator().separate(mixture), await createFastSeparator({ threads: 0 }).separate(mixture)];
  return STEM_TYPES.every((stem) =>
    (['left', 'right'] as const).every((channel) => Buffer.from(threaded[stem][channel].buffer).equals(Buffer.from(inThread[stem][channel].buffer))),
  );
}

/** Times one separation of the 4-minute track (or of a scored track repeated to 4 minutes). */
async function timeEngine(engine: Separator, longTrack: EvalTrack | undefined, fallback: EvalTrack) {
  // Only the mixture: the long track's reference stems would add ~340 MB to the measured peak.
  const mixture = longTrack
    ? decodeWav(readFileSync(path.join(longTrack.dir, MIXTURE_FILE)))
    : repeatTo(loadTrackAudio(fallback).mixture, SPEED_SECONDS);
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await engine.separate(mixture);
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const audioSeconds = mixture.left.length / mixture.sampleRate;
  return {
    source: longTrack ? longTrack.id : `${fallback.id} repeated`,
    audioSeconds,
    wallSeconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    realTimeFactor: audioSeconds / wallSeconds,
    peakRssMb: peakRssMb(),
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
