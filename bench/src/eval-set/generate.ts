/**
 * Generates the synthetic multitrack evaluation set (ground-truth stems, tempo and key).
 *   node bench/dist/eval-set/generate.js [--quick] [--out <dir>] [--force]
 * Idempotent: a directory already holding a complete set of this generator version is left alone.
 * Deterministic: the same bytes on every run (seeded PRNG, fluidsynth without randomness).
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { STEM_TYPES } from '@stemdeck/audio';
import { GENERATOR_VERSION, trackCatalog, type TrackSpec } from './catalog';
import { DEFAULT_EVAL_SET_DIR, DEFAULT_QUICK_EVAL_SET_DIR, INDEX_FILE, META_FILE, MIXTURE_FILE, stemFile, type EvalSetIndex, type EvalTrackMeta } from './meta';
import { limiter } from './render';
import { generateTrack, SAMPLE_RATE } from './track';

interface Args {
  quick: boolean;
  force: boolean;
  out: string;
}

function parseArgs(argv: string[]): Args {
  const quick = argv.includes('--quick');
  const force = argv.includes('--force');
  const outAt = argv.indexOf('--out');
  if (outAt >= 0 && !argv[outAt + 1]) throw new Error('--out needs a directory');
  const out = outAt >= 0 ? path.resolve(argv[outAt + 1]) : quick ? DEFAULT_QUICK_EVAL_SET_DIR : DEFAULT_EVAL_SET_DIR;
  return { quick, force, out };
}

function isComplete(dir: string, set: EvalSetIndex['set'], tracks: TrackSpec[]): boolean {
  const indexPath = path.join(dir, INDEX_FILE);
  if (!existsSync(indexPath)) return false;
  const index = JSON.parse(readFileSync(indexPath, 'utf8')) as EvalSetIndex;
  if (index.generatorVersion !== GENERATOR_VERSION || index.set !== set) return false;
  return tracks.every((t) =>
    [META_FILE, MIXTURE_FILE, ...STEM_TYPES.map(stemFile)].every((f) => existsSync(path.join(dir, t.id, f))),
  );
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const set = args.quick ? 'quick' : 'full';
  const tracks = trackCatalog(args.quick);
  if (!args.force && isComplete(args.out, set, tracks)) {
    console.log(`eval set (${set}, v${GENERATOR_VERSION}) already complete in ${args.out}; nothing to do (--force regenerates)`);
    return;
  }
  await fs.mkdir(args.out, { recursive: true });
  // The index is written last: a run that dies midway leaves no index, so the next run redoes it.
  await fs.rm(path.join(args.out, INDEX_FILE), { force: true });

  const started = process.hrtime.bigint();
  const slot = limiter(2);
  const metas: EvalTrackMeta[] = [];
  // Two tracks in flight: one synthesizes its voice while the other's fluidsynth renders run.
  const queue = [...tracks];
  const worker = async () => {
    for (let spec = queue.shift(); spec; spec = queue.shift()) {
      const t0 = process.hrtime.bigint();
      await fs.rm(path.join(args.out, spec.id), { recursive: true, force: true });
      const meta = await generateTrack(spec, args.out, slot);
      metas.push(meta);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      console.log(`${spec.id.padEnd(40)} ${meta.key.padEnd(9)} ${String(meta.bpm).padStart(5)} BPM  ${meta.durationSeconds}s  ${secs.toFixed(1)}s`);
    }
  };
  await Promise.all([worker(), worker()]);

  const order = new Map(tracks.map((t, i) => [t.id, i]));
  metas.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const index: EvalSetIndex = {
    generatorVersion: GENERATOR_VERSION,
    set,
    sampleRate: SAMPLE_RATE,
    tracks: metas.map(({ id, bpm, key, genre, durationSeconds }) => ({ id, bpm, key, genre, durationSeconds })),
  };
  await fs.writeFile(path.join(args.out, INDEX_FILE), JSON.stringify(index, null, 2) + '\n');
  const total = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`wrote ${metas.length} tracks to ${args.out} in ${total.toFixed(1)}s`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
