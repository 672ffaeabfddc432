#!/usr/bin/env node
// `npm run stems -- ...`: the separation and analysis CLI, no servers needed. Installs and builds what
// it needs on a fresh clone (npm packages, ffmpeg), then runs services/media/dist/cli/stems.js.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a setup step quietly; its output is shown only if it fails. */
function step(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return;
  process.stderr.write(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  process.exit(1);
}

if (!existsSync(join(root, 'node_modules'))) step('npm', ['install', '--no-audit', '--no-fund']);
if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0) step('bash', ['scripts/provision.sh']);
step(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'services/media']);
const result = spawnSync(process.execPath, [join(root, 'services/media/dist/cli/stems.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
