#!/usr/bin/env node
// `npm run stems -- ...`: the separation and analysis CLI, no servers needed. Installs and builds what
// it needs on a fresh clone (npm packages, ffmpeg), then runs services/media/dist/cli/stems.js.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quiet = { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] };
if (!existsSync(join(root, 'node_modules'))) execFileSync('npm', ['install', '--no-audit', '--no-fund'], quiet);
if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status !== 0) execFileSync('bash', ['scripts/provision.sh'], quiet);
execFileSync('npx', ['tsc', '-b', 'services/media'], quiet);
const result = spawnSync(process.execPath, [join(root, 'services/media/dist/cli/stems.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
