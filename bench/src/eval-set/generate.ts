/**
 * Generates a synthetic multitrack set (ground-truth stems, tempo and key).
 *   node bench/dist/eval-set/generate.js [--set dev|heldout|quick|train] [--out <dir>] [--force]
 *   node bench/dist/eval-set/generate.js --set train --count N --seconds S --seed K [--out <dir>]
 *   node bench/dist/eval-set/generate.js --set tempo --count N --seconds S --seed K [--out <dir>]
 *   node bench/dist/eval-set/generate.js --set heldout --seed K [--out <dir>]   (a new held-out set drawn from K)
 *   node bench/dist/eval-set/generate.js --set wide --count N --seconds S --seed K [--out <dir>]   (training only: the wide family)
 *   node bench/dist/eval-set/generate.js --set wide2 --count N --seconds S --seed K [--out <dir>]  (training only: the second family)
 *   node bench/dist/eval-set/generate.js --set wide3 --count N --seconds S --seed K [--out <dir>]  (training only: the third family)
 *   node bench/dist/eval-set/generate.js --set wide4 --count N --seconds S --seed K [--out <dir>]  (training only: the fourth family)
 *   node bench/dist/eval-set/generate.js --set wide5 --count N --seconds S --seed K [--out <dir>]  (training only: the fifth family)
 *   node bench/dist/eval-set/generate.js --set wide6 --count N --seconds S --seed K [--out <dir>]  (training only: the sixth family)
 * `--quick` is short for `--set quick`. Idempotent: a directory already holding a complete set of this
 * generator version is left alone, and the tracks a cut-off run finished are kept (--force redoes everything).
 * Deterministic: the same bytes on every run (seeded PRNG, fluidsynth without randomness), except the second
 * training family's timidity renders, which can differ by about −70 dB from one run to the next (render.ts).
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { STEM_TYPES } from '@stemdeck/audio';
import { GENERATOR_VERSION, trackCatalog, trainCatalog, type TrackSpec } from './catalog';
import { drawnHeldoutCatalog, heldoutCatalog, HELDOUT_GENERATOR_VERSION, type HeldoutTrackSpec } from './heldout/catalog';
import { generateHeldoutTrack, missingHeldoutTools } from './heldout/track';
import {
  DEFAULT_EVAL_SET_DIR,
  DEFAULT_QUICK_EVAL_SET_DIR,
  defaultHeldoutSetDir,
  defaultTempoSetDir,
  defaultTrainSetDir,
  defaultWide2SetDir,
  defaultWide3SetDir,
  defaultWide4SetDir,
  defaultWide5SetDir,
  defaultWide6SetDir,
  defaultWideSetDir,
  INDEX_FILE,
  META_FILE,
  MIXTURE_FILE,
  stemFile,
  type EvalSetIndex,
  type EvalTrackMeta,
} from './meta';
import { limiter } from './render';
import { generateTrack, SAMPLE_RATE, type RenderSlot } from './track';
import { tuningCatalog } from './tuning/catalog';
import { wideCatalog, type WideFamilyName, type WideTrackSpec } from './wide/catalog';
import { missingWideTools, WIDE_FAMILY, WIDE_GENERATOR_VERSION } from './wide/family';
import { missingWide2Tools, prepareWide2Family, WIDE2_FAMILY, WIDE2_GENERATOR_VERSION } from './wide2/family';
import { missingWide3Tools, WIDE3_FAMILY, WIDE3_GENERATOR_VERSION } from './wide3/family';
import { missingWide4Tools, prepareWide4Family, WIDE4_FAMILY, WIDE4_GENERATOR_VERSION } from './wide4/family';
import { missingWide5Tools, WIDE5_FAMILY, WIDE5_GENERATOR_VERSION } from './wide5/family';
import { missingWide6Tools, WIDE6_FAMILY, WIDE6_GENERATOR_VERSION } from './wide6/family';
import { generateFamilyTrack, type SourceFamily } from './family-track';

const SET_CHOICES = ['dev', 'heldout', 'quick', 'train', 'tempo', 'wide', 'wide2', 'wide3', 'wide4', 'wide5', 'wide6'] as const;
type SetChoice = (typeof SET_CHOICES)[number];

/** The training families: their sources, where their sets go, and what installs their tools. */
const TRAINING_FAMILIES: Record<
  WideFamilyName,
  { label: string; family: SourceFamily; version: number; dir: (seed: number) => string; missing: () => string[]; prepare?: () => Promise<void>; stage: string }
> = {
  wide: { label: 'the wide training set', family: WIDE_FAMILY, version: WIDE_GENERATOR_VERSION, dir: defaultWideSetDir, missing: missingWideTools, stage: '--finetune' },
  wide2: { label: 'the second training family', family: WIDE2_FAMILY, version: WIDE2_GENERATOR_VERSION, dir: defaultWide2SetDir, missing: missingWide2Tools, prepare: prepareWide2Family, stage: '--stage12' },
  wide3: { label: 'the third training family', family: WIDE3_FAMILY, version: WIDE3_GENERATOR_VERSION, dir: defaultWide3SetDir, missing: missingWide3Tools, stage: '--stage13' },
  wide4: {
    label: 'the fourth training family',
    family: WIDE4_FAMILY,
    version: WIDE4_GENERATOR_VERSION,
    dir: defaultWide4SetDir,
    missing: missingWide4Tools,
    prepare: prepareWide4Family,
    stage: '--stage14',
  },
  wide5: { label: 'the fifth training family', family: WIDE5_FAMILY, version: WIDE5_GENERATOR_VERSION, dir: defaultWide5SetDir, missing: missingWide5Tools, stage: '--stage15' },
  wide6: {
    label: 'the sixth training family',
    family: WIDE6_FAMILY,
    version: WIDE6_GENERATOR_VERSION,
    dir: defaultWide6SetDir,
    missing: missingWide6Tools,
    prepare: prepareWide4Family,
    stage: '--stage17',
  },
};

function isTrainingFamily(set: string): set is WideFamilyName {
  return set in TRAINING_FAMILIES;
}

interface Plan {
  /** Name recorded in index.json ('full' is the development set). */
  indexSet: EvalSetIndex['set'];
  version: number;
  tracks: TrackSpec[];
  generate: (spec: TrackSpec, outDir: string, slot: RenderSlot) => Promise<EvalTrackMeta>;
  out: string;
  seed?: number;
  force: boolean;
}

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

function positiveNumber(argv: string[], name: string, fallback: number, integer: boolean): number {
  const text = option(argv, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value))) throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, got ${text}`);
  return value;
}

function seedOf(argv: string[]): number {
  const seedText = option(argv, '--seed') ?? '1';
  const seed = Number(seedText);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${seedText}`);
  return seed;
}

function parseArgs(argv: string[]): Plan {
  const setText = option(argv, '--set') ?? (argv.includes('--quick') ? 'quick' : 'dev');
  if (!SET_CHOICES.includes(setText as SetChoice)) throw new Error(`--set must be one of ${SET_CHOICES.join(', ')}, got ${setText}`);
  const set = setText as SetChoice;
  const force = argv.includes('--force');
  const outText = option(argv, '--out');
  const outOr = (fallback: string) => (outText ? path.resolve(outText) : fallback);
  // The development family (dev, quick, train) shares one generator and its version.
  const devFamily = { version: GENERATOR_VERSION, generate: generateTrack as Plan['generate'], force };
  switch (set) {
    case 'dev':
      return { ...devFamily, indexSet: 'full', tracks: trackCatalog(false), out: outOr(DEFAULT_EVAL_SET_DIR) };
    case 'quick':
      return { ...devFamily, indexSet: 'quick', tracks: trackCatalog(true), out: outOr(DEFAULT_QUICK_EVAL_SET_DIR) };
    case 'heldout': {
      // Without --seed the fixed held-out set, as it always was; with one, a new set drawn from it.
      const seed = option(argv, '--seed') === undefined ? undefined : seedOf(argv);
      return {
        indexSet: 'heldout',
        version: HELDOUT_GENERATOR_VERSION,
        tracks: seed === undefined ? heldoutCatalog() : drawnHeldoutCatalog(seed),
        generate: (spec, outDir, slot) => generateHeldoutTrack(spec as HeldoutTrackSpec, outDir, slot),
        out: outOr(defaultHeldoutSetDir(seed)),
        force,
        ...(seed === undefined ? {} : { seed }),
      };
    }
    case 'train': {
      const count = positiveNumber(argv, '--count', 240, true);
      const seconds = positiveNumber(argv, '--seconds', 12, false);
      const seed = seedOf(argv);
      return { ...devFamily, indexSet: 'train', tracks: trainCatalog(count, seconds, seed), out: outOr(defaultTrainSetDir(seed)), seed };
    }
    case 'tempo': {
      const count = positiveNumber(argv, '--count', 50, true);
      const seconds = positiveNumber(argv, '--seconds', 20, false);
      const seed = seedOf(argv);
      return { ...devFamily, indexSet: 'tempo', tracks: tuningCatalog(count, seconds, seed), out: outOr(defaultTempoSetDir(seed)), seed };
    }
    case 'wide':
    case 'wide2':
    case 'wide3':
    case 'wide4':
    case 'wide5':
    case 'wide6': {
      const count = positiveNumber(argv, '--count', 120, true);
      const seconds = positiveNumber(argv, '--seconds', 15, false);
      const seed = seedOf(argv);
      const { family, version, dir } = TRAINING_FAMILIES[set];
      return {
        indexSet: set,
        version,
        tracks: wideCatalog(count, seconds, seed, set),
        generate: (spec, outDir, slot) => generateFamilyTrack(spec as WideTrackSpec, outDir, slot, family),
        out: outOr(dir(seed)),
        force,
        seed,
      };
    }
  }
}

function isComplete(plan: Plan): boolean {
  const indexPath = path.join(plan.out, INDEX_FILE);
  if (!existsSync(indexPath)) return false;
  const index = JSON.parse(readFileSync(indexPath, 'utf8')) as EvalSetIndex;
  if (index.generatorVersion !== plan.version || index.set !== plan.indexSet || index.seed !== plan.seed) return false;
  const listed = new Map(index.tracks.map((t) => [t.id, t.durationSeconds]));
  return plan.tracks.every((t) => listed.get(t.id) === t.durationSeconds && hasTrackFiles(path.join(plan.out, t.id)));
}

/** A track's meta.json, mixture and four stems are all on disk. */
function hasTrackFiles(dir: string): boolean {
  return [META_FILE, MIXTURE_FILE, ...STEM_TYPES.map(stemFile)].every((f) => existsSync(path.join(dir, f)));
}

/**
 * A track a run that died midway finished already (its meta.json, of this generator version and length, is
 * written after its five WAVs), kept as it is; without --force the run goes on from there.
 */
function finishedTrack(plan: Plan, spec: TrackSpec): EvalTrackMeta | undefined {
  const dir = path.join(plan.out, spec.id);
  if (!hasTrackFiles(dir)) return undefined;
  let meta: EvalTrackMeta;
  try {
    meta = JSON.parse(readFileSync(path.join(dir, META_FILE), 'utf8')) as EvalTrackMeta;
  } catch {
    return undefined; // cut off while it was written
  }
  return meta.id === spec.id && meta.generatorVersion === plan.version && meta.durationSeconds === spec.durationSeconds ? meta : undefined;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { indexSet: set, tracks } = args;
  if (set === 'heldout') {
    const missing = missingHeldoutTools();
    if (missing.length > 0) throw new Error(`the held-out set needs ${missing.join(', ')}; scripts/provision.sh installs them`);
  }
  if (isTrainingFamily(set)) {
    const { label, missing, prepare, stage } = TRAINING_FAMILIES[set];
    const lacking = missing();
    if (lacking.length > 0) throw new Error(`${label} needs ${lacking.join(', ')}; scripts/provision-training.sh (run by npm run train:separation -- ${stage}) installs them`);
    await prepare?.();
  }
  if (!args.force && isComplete(args)) {
    console.log(`eval set (${set}, v${args.version}) already complete in ${args.out}; nothing to do (--force regenerates)`);
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
      const kept = args.force ? undefined : finishedTrack(args, spec);
      if (kept) {
        metas.push(kept);
        continue;
      }
      const t0 = process.hrtime.bigint();
      await fs.rm(path.join(args.out, spec.id), { recursive: true, force: true });
      const meta = await args.generate(spec, args.out, slot);
      metas.push(meta);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      console.log(`${spec.id.padEnd(40)} ${meta.key.padEnd(9)} ${String(meta.bpm).padStart(5)} BPM  ${meta.durationSeconds}s  ${secs.toFixed(1)}s`);
    }
  };
  await Promise.all([worker(), worker()]);

  const order = new Map(tracks.map((t, i) => [t.id, i]));
  metas.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const index: EvalSetIndex = {
    generatorVersion: args.version,
    set,
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
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
