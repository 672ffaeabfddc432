/**
 * The embedded way to run the main job without any server:
 *   npm run stems -- split <input> --out <dir> [--engine fast|hybrid|quality] [--model <file.onnx>]
 *   npm run stems -- analyze <input>
 * Any input ffmpeg reads. `split` writes vocals.wav drums.wav bass.wav other.wav (stereo, source rate)
 * and prints a JSON summary; `analyze` prints the analysis JSON.
 */
import {
  analyzeAudio,
  bundledEngineSpec,
  decodeAudio,
  ENGINE_NAMES,
  EngineName,
  encodeWav,
  OnnxSeparator,
  Separator,
  splitFileFast,
  STEM_TYPES,
  StemType,
} from '@stemdeck/audio';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `usage:
  npm run stems -- split <input> --out <dir> [--engine fast|hybrid|quality] [--model <file.onnx>]
  npm run stems -- analyze <input>`;

class UsageError extends Error {}

/** `npm run` moves to the repo root; paths are the user's, relative to where they typed the command. */
const fromUser = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

/** The model engines (fast has its own streamed path, see splitFast). */
function separatorFor(engine: Exclude<EngineName, 'fast'>, model: string | undefined): Separator {
  const variable = engine === 'hybrid' ? 'STEM_MODEL_HYBRID' : 'STEM_MODEL_QUALITY';
  const modelPath = model ?? process.env[variable];
  if (modelPath === 'off') throw new UsageError(`${engine} engine switched off (${variable}=off)`);
  // Without a model of its own, the engine runs the network shipped with the code.
  if (!modelPath) return new OnnxSeparator(engine, bundledEngineSpec(engine));
  return new OnnxSeparator(engine, { modelPath, sampleRate: Number(process.env.STEM_MODEL_SAMPLE_RATE ?? 44100) });
}

const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

async function split(input: string, outDir: string, engine: EngineName, model: string | undefined) {
  if (engine === 'fast') return splitFast(input, outDir);
  const separator = separatorFor(engine, model);
  const started = process.hrtime.bigint();
  const mixture = await decodeAudio(input);
  const decodeSeconds = seconds(started);
  const separateStarted = process.hrtime.bigint();
  const stems = await separator.separate(mixture, progressPrinter(engine));
  process.stderr.write('\n');
  const separateSeconds = seconds(separateStarted);
  mkdirSync(outDir, { recursive: true });
  const outputs = outputPaths(outDir);
  for (const type of STEM_TYPES) writeFileSync(outputs[type], encodeWav(stems[type], 16));
  const durationSeconds = mixture.left.length / mixture.sampleRate;
  return {
    input,
    engine,
    sampleRate: mixture.sampleRate,
    durationSeconds: round(durationSeconds),
    outputs,
    timings: { decodeSeconds: round(decodeSeconds), separateSeconds: round(separateSeconds), totalSeconds: round(seconds(started)) },
    realTimeFactor: round(durationSeconds / separateSeconds, 1),
    peakRssMB: round(process.resourceUsage().maxRSS / 1024, 0),
  };
}

/**
 * The fast engine writes each segment's stems while the other segments are still being separated
 * (splitFileFast), so one figure, from the start to the four files written, says how long it took.
 */
async function splitFast(input: string, outDir: string) {
  const started = process.hrtime.bigint();
  mkdirSync(outDir, { recursive: true });
  const outputs = outputPaths(outDir);
  const { sampleRate, frames } = await splitFileFast(input, outputs, { onProgress: progressPrinter('fast') });
  process.stderr.write('\n');
  const totalSeconds = seconds(started);
  const durationSeconds = frames / sampleRate;
  return {
    input,
    engine: 'fast',
    sampleRate,
    durationSeconds: round(durationSeconds),
    outputs,
    timings: { totalSeconds: round(totalSeconds) },
    realTimeFactor: round(durationSeconds / totalSeconds, 1),
    peakRssMB: round(process.resourceUsage().maxRSS / 1024, 0),
  };
}

function outputPaths(outDir: string): Record<StemType, string> {
  return Object.fromEntries(STEM_TYPES.map((type) => [type, join(outDir, `${type}.wav`)])) as Record<StemType, string>;
}

/** Shows the separation's progress in steps of 10 % on one line of stderr. */
function progressPrinter(engine: EngineName): (progress: { fraction: number }) => void {
  let lastShown = -1;
  return ({ fraction }) => {
    const percent = Math.floor(fraction * 10) * 10;
    if (percent > lastShown) {
      lastShown = percent;
      process.stderr.write(`\r${engine}: ${percent}%`);
    }
  };
}

async function analyze(input: string) {
  const audio = await decodeAudio(input);
  return { input, durationSeconds: round(audio.left.length / audio.sampleRate), ...analyzeAudio(audio) };
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string', short: 'o' }, engine: { type: 'string', short: 'e', default: 'fast' }, model: { type: 'string' } },
  });
  const [command, input] = positionals;
  if (!input || (command !== 'split' && command !== 'analyze')) throw new UsageError(USAGE);
  if (command === 'analyze') return print(await analyze(fromUser(input)));
  if (!values.out) throw new UsageError(`split needs --out <dir>\n${USAGE}`);
  const engine = values.engine as EngineName;
  if (!ENGINE_NAMES.includes(engine)) throw new UsageError(`unknown engine "${values.engine}" (fast, hybrid or quality)`);
  print(await split(fromUser(input), fromUser(values.out), engine, values.model));
}

function print(result: unknown): void {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error instanceof UsageError ? error.message : `stems: ${error.message}`}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
