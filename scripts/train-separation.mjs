// Trains Stemdeck's separation network and exports it where the engines load it from.
//   npm run train:separation [-- --minutes 45 --hidden 192 --out .data/separation-runs/v1]        stage 1, from scratch
//   npm run train:separation -- --finetune [--minutes 50 --out .data/separation-runs/v2]           stage 2, from stage 1's network
//   npm run train:separation -- --stage3 [--minutes 60 --out .data/separation-runs/v3]             stage 3, from stage 2's network
//   npm run train:separation -- --stage4 [--minutes 45 --out .data/separation-runs/v4]             stage 4, from stage 3's network
//   npm run train:separation -- --stage5 [--minutes 50 --out .data/separation-runs/v5]             stage 5, from stage 4's network
//   npm run train:separation -- --stage6 [--minutes 45 --out .data/separation-runs/v6]             stage 6, from stage 5's network
//   npm run train:separation -- --stage7 [--minutes 45 --out .data/separation-runs/v7]             stage 7, from stage 6's network
//   npm run train:separation -- --stage8 [--minutes 40 --out .data/separation-runs/v8]             stage 8, from stage 7's network
//   npm run train:separation -- --stage9 [--minutes 40 --out .data/separation-runs/v9]             stage 9, from stage 8's network
//   npm run train:separation -- --stage10 [--minutes 40 --out .data/separation-runs/v10]           stage 10, from stage 9's network
//   npm run train:separation -- --stage11 [--minutes 40 --out .data/separation-runs/v11]           stage 11, from stage 10's network
//   npm run train:separation -- --stage12 [--minutes 40 --out .data/separation-runs/v12]           stage 12, from stage 11's network
//   npm run train:separation -- --stage13 [--minutes 40 --out .data/separation-runs/v13]           stage 13, from stage 12's network
// Steps: a Python virtual environment with tools/separation-model/requirements.txt (.tools/train-venv),
// the dev eval set and the training sets from the project's own generator (bench/src/eval-set), training
// (train.py), then the ONNX export to libs/audio/models/stemdeck-masknet.onnx. The held-out sets are never read.
// - Stage 1: 160 × 15 s songs of the dev source family (seed 1); the dev set picks the checkpoint.
// - Stage 2 (--finetune): starts from stage 1's network (tools/separation-model/runs/v1, read back with
//   onnx_to_params.py) and trains on
//   tempo tuning sets 1–2 (dev sources, 14 more grooves) and the wide family (--set wide: sources that are
//   neither dev nor held-out, 160 × 15 s, seed 1; its Debian packages installed by scripts/provision-training.sh);
//   the checkpoint is chosen by the mean of the dev set's and a wide validation set's (8 × 20 s, seed 2) SDR.
// - Stage 3 (--stage3): starts from stage 2's network (tools/separation-model/runs/v2) and trains on the same
//   sets plus a second wide set (88 × 30 s, seed 3) at half the learning rate; the same checkpoint rule.
// - Stage 4 (--stage4): starts from stage 3's network (tools/separation-model/runs/v3) and trains on the same
//   sets plus a third wide set (88 × 30 s, seed 4) at half stage 3's learning rate; the same checkpoint rule.
// - Stage 5 (--stage5): starts from stage 4's network (tools/separation-model/runs/v4) and trains on the same
//   sets with every stem's mixing varied (a pan and a room of its own, data.MixAugment) at stage 3's learning
//   rate; the checkpoint is chosen by the mean of dev, the wide validation set and that set remixed (seed 7).
// - Stage 6 (--stage6): starts from stage 5's network (tools/separation-model/runs/v5) and trains as stage 5 did
//   with a fourth wide set (88 × 30 s, seed 5: new songs, the same sources) at 0.6 of its learning rate; the
//   same checkpoint rule.
// - Stage 7 (--stage7): starts from stage 6's network (tools/separation-model/runs/v6) and trains as stage 6 did
//   with a fifth wide set (88 × 30 s, seed 6) at two thirds of its learning rate; the same checkpoint rule.
// - Stage 8 (--stage8): starts from stage 7's network (tools/separation-model/runs/v7) and trains as stage 7 did
//   with a sixth wide set (88 × 30 s, seed 8; seed 7 is the validation remix's) at its learning rate, 40 minutes.
// - Stage 9 (--stage9): starts from stage 8's network (tools/separation-model/runs/v8) and trains as stage 8 did
//   with a seventh wide set (88 × 30 s, seed 9); the same learning rate, minutes and checkpoint rule.
// - Stage 10 (--stage10): starts from stage 9's network (tools/separation-model/runs/v9) and trains as stage 9 did
//   with an eighth wide set (88 × 30 s, seed 10); the same learning rate, minutes and checkpoint rule.
// - Stage 11 (--stage11): starts from stage 10's network (tools/separation-model/runs/v10) and trains as stage 10 did
//   with a ninth wide set (88 × 30 s, seed 11); the same learning rate, minutes and checkpoint rule.
// - Stage 12 (--stage12): starts from stage 11's network (tools/separation-model/runs/v11) and trains on a second
//   training family (--set wide2: freepats played by timidity, the avldrums kits, festival's speakers; sources
//   that are neither development, held-out nor the first wide family's), three sets of 88 × 30 s (seeds 1, 3 and
//   4), beside the tempo sets, the first wide set and the three latest of the first family (seeds 9–11): the
//   first family's sets 3–8 give way in memory. The checkpoint is chosen as before, with the validation being
//   the first family's (seed 2) and the second's (8 × 20 s, seed 2) together; the same learning rate and minutes.
// - Stage 13 (--stage13): starts from stage 12's network (tools/separation-model/runs/v12) and adds a third training
//   family (--set wide3: a Csound orchestra of synthesized instruments and FOF singing, Hydrogen's sampled kits;
//   sources that none of the other sets use), three sets of 88 × 30 s (seeds 1, 3 and 4), beside stage 12's sets
//   less the first family's seeds 10 and 11 (memory). The validation is the three families' seed-2 sets together;
//   the same learning rate, minutes and checkpoint rule.
// - Stage 14 (--stage14): starts from stage 13's network (tools/separation-model/runs/v13) and adds a fourth training
//   family (--set wide4: Sonivox EAS's General MIDI wavetable, a sampled sound set none of the other sets use, and
//   Hydrogen's kits), three sets of 88 × 30 s (seeds 1, 3 and 4), beside the first family's seed-1 set and the
//   second and third families' seeds 1 and 3 (memory: as many songs as stage 13). The checkpoint rule changes, as
//   fixed before this run: the validation is the three earlier families' seed-2 sets only, none of the new family's
//   songs, so the choice weighs what the new sounds do for sounds the network is not being taught (stage 13's
//   choice followed its new family's validation while dev fell); the same learning rate and minutes.
// - Stage 15 (--stage15): starts from stage 14's network (tools/separation-model/runs/v14) and adds a fifth training
//   family (--set wide5: single recordings from LMMS's and Sonic Pi's sample libraries played by our pitched sampler,
//   and kits assembled from their one-shots; sources none of the other sets use), three sets of 88 × 30 s (seeds 1, 3
//   and 4), beside the first family's seed-1 set, the second's and third's seed 1 and the fourth's seeds 1 and 3
//   (memory: as many songs as stage 14). The checkpoint rule as stage 14's, fixed before this run: the validation is
//   the first three families' seed-2 sets, none of the new family's songs; the same learning rate and minutes.
//   Its rule kept step 0 (stage 14's network): the earlier families' validation fell 0.1 dB (vocals, drums, bass).
// - Stage 16 (--stage16): stage 15 again from stage 14's network, but giving way in memory to one set of the new
//   family only: stage 14's sets with the fourth family's seed 4 replaced by the fifth's seed 1 (the second and third
//   families keep two sets each, as in stage 14), to tell forgetting of the families stage 15 cut from what the
//   new sounds do; the same rule (fixed before this run), learning rate and minutes.
// - Stage 17 (--stage17): starts from stage 16's network and swaps the fifth family's set for one of a sixth
//   (--set wide6: the fourth family's sounds, half its vocals words sung to the melody by festival's singing mode,
//   a kind of vocal no other set has); the second to fourth families' sets as in stages 14 and 16. The same rule
//   (fixed before this run), learning rate and minutes.
// Re-measure with `npm run bench:separation` afterwards, and the regression floors with `npm run bench:floors`;
// tools/separation-model/card.py writes both into libs/audio/models/stemdeck-masknet.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const VENV = join(ROOT, '.tools', 'train-venv');
const PY = join(VENV, 'bin', 'python');
const TOOL = join(ROOT, 'tools', 'separation-model');
const TRAIN_SET = { count: 160, seconds: 15, seed: 1 };
const TRAIN_DIR = join(ROOT, '.data', `train-set-${TRAIN_SET.seed}`);
const DEV_DIR = join(ROOT, '.data', 'eval-set');
const TEMPO_SETS = [1, 2].map((seed) => ({ count: 50, seconds: 20, seed, dir: join(ROOT, '.data', `tempo-set-${seed}`) }));
const WIDE_SET = { count: 160, seconds: 15, seed: 1, dir: join(ROOT, '.data', 'wide-set-1') };
const WIDE_VAL = { count: 8, seconds: 20, seed: 2, dir: join(ROOT, '.data', 'wide-set-2') };
/** The wide sets each later stage adds: 88 songs of 30 s (seed 7 is taken by the validation remix). */
const wideSet = (seed) => ({ count: 88, seconds: 30, seed, dir: join(ROOT, '.data', `wide-set-${seed}`) });
/** The second training family's sets (`--set wide2`): 88 songs of 30 s, and its validation set (seed 2). */
const wide2Set = (seed) => ({ family: 'wide2', count: 88, seconds: 30, seed, dir: join(ROOT, '.data', `wide2-set-${seed}`) });
const WIDE2_VAL = { family: 'wide2', count: 8, seconds: 20, seed: 2, dir: join(ROOT, '.data', 'wide2-set-2') };
/** The third training family's sets (`--set wide3`), and its validation set (seed 2). */
const wide3Set = (seed) => ({ family: 'wide3', count: 88, seconds: 30, seed, dir: join(ROOT, '.data', `wide3-set-${seed}`) });
const WIDE3_VAL = { family: 'wide3', count: 8, seconds: 20, seed: 2, dir: join(ROOT, '.data', 'wide3-set-2') };
/** The fourth training family's sets (`--set wide4`). */
const wide4Set = (seed) => ({ family: 'wide4', count: 88, seconds: 30, seed, dir: join(ROOT, '.data', `wide4-set-${seed}`) });
/** The fifth training family's sets (`--set wide5`). */
const wide5Set = (seed) => ({ family: 'wide5', count: 88, seconds: 30, seed, dir: join(ROOT, '.data', `wide5-set-${seed}`) });
/** The sixth training family's sets (`--set wide6`). */
const wide6Set = (seed) => ({ family: 'wide6', count: 88, seconds: 30, seed, dir: join(ROOT, '.data', `wide6-set-${seed}`) });
const MODEL = join(ROOT, 'libs', 'audio', 'models', 'stemdeck-masknet.onnx');
/** An earlier stage's network as it was committed (the same file as the engines loaded then, so git stores each once). */
const stageModel = (stage) => join(TOOL, 'runs', `v${stage}`, 'stemdeck-masknet.onnx');
/** The fine-tuning stages: the flag that asks for one, the network it starts from, the sets it trains on, its learning rate, minutes and further train.py options. */
const FINETUNE = {
  2: { flag: '--finetune', from: stageModel(1), wide: [WIDE_SET], lr: '5e-4', minutes: '50' },
  3: { flag: '--stage3', from: stageModel(2), wide: [WIDE_SET, wideSet(3)], lr: '2.5e-4', minutes: '60' },
  4: { flag: '--stage4', from: stageModel(3), wide: [WIDE_SET, wideSet(3), wideSet(4)], lr: '1.25e-4', minutes: '45' },
  5: { flag: '--stage5', from: stageModel(4), wide: [WIDE_SET, wideSet(3), wideSet(4)], lr: '2.5e-4', minutes: '50', extra: ['--mixing', '--val-remix', '7'] },
  6: { flag: '--stage6', from: stageModel(5), wide: [WIDE_SET, wideSet(3), wideSet(4), wideSet(5)], lr: '1.5e-4', minutes: '45', extra: ['--mixing', '--val-remix', '7'] },
  7: { flag: '--stage7', from: stageModel(6), wide: [WIDE_SET, wideSet(3), wideSet(4), wideSet(5), wideSet(6)], lr: '1e-4', minutes: '45', extra: ['--mixing', '--val-remix', '7'] },
};
// Stages 8 on: the stage before's sets plus one more wide set (its seed is the stage's), at stage 7's learning rate
// for 40 minutes, the songs held as float16.
for (const stage of [8, 9, 10, 11]) {
  FINETUNE[stage] = { flag: `--stage${stage}`, from: stageModel(stage - 1), wide: [...FINETUNE[stage - 1].wide, wideSet(stage)], lr: '1e-4', minutes: '40', extra: ['--mixing', '--val-remix', '7', '--half-storage'] };
}
FINETUNE[12] = {
  flag: '--stage12',
  from: stageModel(11),
  wide: [WIDE_SET, wideSet(9), wideSet(10), wideSet(11), wide2Set(1), wide2Set(3), wide2Set(4)],
  val: [WIDE_VAL, WIDE2_VAL],
  lr: '1e-4',
  minutes: '40',
  extra: ['--mixing', '--val-remix', '7', '--half-storage'],
};
FINETUNE[13] = {
  ...FINETUNE[12],
  flag: '--stage13',
  from: stageModel(12),
  wide: [WIDE_SET, wideSet(9), wide2Set(1), wide2Set(3), wide2Set(4), wide3Set(1), wide3Set(3), wide3Set(4)],
  val: [WIDE_VAL, WIDE2_VAL, WIDE3_VAL],
};
FINETUNE[14] = {
  ...FINETUNE[13],
  flag: '--stage14',
  from: stageModel(13),
  wide: [WIDE_SET, wide2Set(1), wide2Set(3), wide3Set(1), wide3Set(3), wide4Set(1), wide4Set(3), wide4Set(4)],
  // The earlier families' validation only (the rule fixed before stage 14's run): none of the new family's songs.
  val: [WIDE_VAL, WIDE2_VAL, WIDE3_VAL],
};
FINETUNE[15] = {
  ...FINETUNE[14],
  flag: '--stage15',
  from: stageModel(14),
  wide: [WIDE_SET, wide2Set(1), wide3Set(1), wide4Set(1), wide4Set(3), wide5Set(1), wide5Set(3), wide5Set(4)],
};
FINETUNE[16] = {
  ...FINETUNE[15],
  flag: '--stage16',
  wide: [WIDE_SET, wide2Set(1), wide2Set(3), wide3Set(1), wide3Set(3), wide4Set(1), wide4Set(3), wide5Set(1)],
};
FINETUNE[17] = {
  ...FINETUNE[16],
  flag: '--stage17',
  from: stageModel(16),
  wide: [WIDE_SET, wide2Set(1), wide2Set(3), wide3Set(1), wide3Set(3), wide4Set(1), wide4Set(3), wide6Set(1)],
};
const STAGE_FLAGS = Object.values(FINETUNE).map(({ flag }) => flag);

function run(command, args, options = {}) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.status !== 0) throw new Error(`${command} exited ${result.status ?? result.signal}`);
}

const passed = process.argv.slice(2);
const option = (name, fallback) => {
  const at = passed.indexOf(`--${name}`);
  return at >= 0 ? passed[at + 1] : fallback;
};
/** The latest stage whose flag was passed; stage 1 without one. */
const stage = Math.max(1, ...Object.entries(FINETUNE).filter(([, { flag }]) => passed.includes(flag)).map(([n]) => Number(n)));
const out = option('out', join(ROOT, '.data', 'separation-runs', `v${stage}`));
const generate = (set, { count, seconds, seed }) =>
  run(process.execPath, ['bench/dist/eval-set/generate.js', '--set', set, '--count', String(count), '--seconds', String(seconds), '--seed', String(seed)]);

if (!existsSync(PY)) run('python3', ['-m', 'venv', VENV]);
run(PY, ['-m', 'pip', 'install', '--quiet', '-r', join(TOOL, 'requirements.txt')]);
run('npx', ['tsc', '-b', 'bench']);
run(process.execPath, ['bench/dist/eval-set/generate.js']);
const forwarded = passed.filter((_, i) => passed[i] !== '--out' && passed[i - 1] !== '--out' && !STAGE_FLAGS.includes(passed[i]));
if (stage > 1) {
  const { from, wide, val = [WIDE_VAL], lr, minutes, extra = [] } = FINETUNE[stage];
  run('bash', [join(ROOT, 'scripts', 'provision-training.sh')]);
  for (const set of TEMPO_SETS) generate('tempo', set);
  for (const set of [...wide, ...val]) generate(set.family ?? 'wide', set);
  mkdirSync(out, { recursive: true });
  const start = join(out, 'start.npz');
  run(PY, [join(TOOL, 'onnx_to_params.py'), from, start], { cwd: TOOL });
  const train = [...TEMPO_SETS, ...wide].map((set) => set.dir).join(',');
  run(PY, [join(TOOL, 'train.py'), '--train', train, '--dev', DEV_DIR, '--val', val.map((set) => set.dir).join(','), '--resume', start, '--lr', lr, '--minutes', minutes, '--out', out, ...extra, ...forwarded], { cwd: TOOL });
} else {
  generate('train', TRAIN_SET);
  run(PY, [join(TOOL, 'train.py'), '--train', TRAIN_DIR, '--dev', DEV_DIR, '--out', out, ...forwarded], { cwd: TOOL });
}
run(PY, [join(TOOL, 'export_onnx.py'), join(out, 'params.npz'), MODEL], { cwd: TOOL });
console.log(`trained model exported; curves in ${join(out, 'curves.json')}`);
