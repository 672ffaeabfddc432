#!/usr/bin/env node
// `npm run bench:<name> -- [its options]`: one benchmark, on demand. On a fresh clone nothing a benchmark needs
// is there yet (the npm packages, ffmpeg, fluidsynth and the soundfonts the evaluation sets are rendered with,
// the servers of the benchmarks that start the studio), so this first runs the same preparation as `npm start`
// and `npm test` (install when the lockfile is newer, provision: a few seconds once done), builds what the
// benchmark runs — bench/ alone, or with `--studio` the whole studio it starts — and then runs
// bench/dist/<script>.js with the remaining arguments, its exit status passed on.
//   node scripts/bench.mjs [--studio] <script under bench/dist, without .js> [benchmark options]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { prepare, ROOT, run } from './stack.mjs';

const argv = process.argv.slice(2);
const studio = argv[0] === '--studio';
const [script, ...args] = studio ? argv.slice(1) : argv;
if (!script) {
  process.stderr.write('usage: node scripts/bench.mjs [--studio] <script under bench/dist> [options]\n');
  process.exit(2);
}

await prepare({ build: studio });
// The whole build (with --studio) includes bench/; otherwise bench/ and what it references, incrementally.
if (!studio) await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'bench']);
const child = spawn(process.execPath, [join(ROOT, 'bench', 'dist', `${script}.js`), ...args], { cwd: ROOT, stdio: 'inherit' });
// Ctrl-C reaches the benchmark too (same process group); this waits for it and answers with its status.
process.on('SIGINT', () => undefined);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
