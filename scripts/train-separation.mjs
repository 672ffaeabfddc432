// Trains Stemdeck's separation network and exports it where the engines load it from.
//   npm run train:separation [-- --minutes 45 --hidden 192 --out .data/separation-runs/v1]
// Steps: a Python virtual environment with tools/separation-model/requirements.txt (.tools/train-venv),
// the dev eval set and the training set from the project's own generator (bench/src/eval-set; the
// training set is 160 × 15 s songs of the dev source family, seed 1), training (train.py: the dev set
// picks the checkpoint; the held-out set is never read), then the ONNX export to
// libs/audio/models/stemdeck-masknet.onnx. Re-measure with `npm run bench:separation` afterwards and
// update libs/audio/models/stemdeck-masknet.json (figures and regression floors).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const VENV = join(ROOT, '.tools', 'train-venv');
const PY = join(VENV, 'bin', 'python');
const TOOL = join(ROOT, 'tools', 'separation-model');
const TRAIN_SET = { count: 160, seconds: 15, seed: 1 };
const TRAIN_DIR = join(ROOT, '.data', `train-set-${TRAIN_SET.seed}`);
const DEV_DIR = join(ROOT, '.data', 'eval-set');

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
const out = option('out', join(ROOT, '.data', 'separation-runs', 'v1'));

if (!existsSync(PY)) run('python3', ['-m', 'venv', VENV]);
run(PY, ['-m', 'pip', 'install', '--quiet', '-r', join(TOOL, 'requirements.txt')]);
run('npx', ['tsc', '-b', 'bench']);
run(process.execPath, ['bench/dist/eval-set/generate.js']);
run(process.execPath, ['bench/dist/eval-set/generate.js', '--set', 'train', '--count', String(TRAIN_SET.count), '--seconds', String(TRAIN_SET.seconds), '--seed', String(TRAIN_SET.seed)]);
const forwarded = passed.filter((_, i) => passed[i] !== '--out' && passed[i - 1] !== '--out');
run(PY, [join(TOOL, 'train.py'), '--train', TRAIN_DIR, '--dev', DEV_DIR, '--out', out, ...forwarded], { cwd: TOOL });
run(PY, [join(TOOL, 'export_onnx.py'), join(out, 'params.npz'), join(ROOT, 'libs', 'audio', 'models', 'stemdeck-masknet.onnx')], { cwd: TOOL });
console.log(`trained model exported; curves in ${join(out, 'curves.json')}`);
