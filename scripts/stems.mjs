#!/usr/bin/env node
// `npm run stems -- ...`: the separation and analysis CLI, no servers needed. Installs and builds what
// it needs on a fresh clone (npm packages, ffmpeg), then runs services/media/dist/cli/stems.js in this
// same process (a second Node process would only add its start-up to every run).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI_PROJECT = 'services/media';

/** Runs a setup step quietly; its output is shown only if it fails. */
function step(command, args) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return;
  process.stderr.write(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  process.exit(1);
}

/** Latest modification time under `path` (files and folders: adding, removing or renaming a file touches its folder). */
function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/**
 * Whether `tsc -b` would find nothing to do for `project` and the projects it references: each one's
 * build record is newer than its sources and its tsconfig. A cheap look (a few hundred stat calls) that
 * saves the compiler's own start-up on every run; anything doubtful answers false and the compiler decides.
 */
function buildIsCurrent(project, seen = new Set()) {
  if (seen.has(project)) return true;
  seen.add(project);
  try {
    const dir = join(root, project);
    const built = statSync(join(dir, 'tsconfig.tsbuildinfo')).mtimeMs;
    const config = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
    const inputs = [join(dir, 'src'), join(dir, 'tsconfig.json'), join(root, 'tsconfig.base.json')];
    if (inputs.some((input) => newestChange(input) >= built)) return false;
    const references = [...config.matchAll(/"path"\s*:\s*"([^"]+)"/g)].map((match) => join(project, match[1]));
    return references.every((reference) => buildIsCurrent(reference, seen));
  } catch {
    return false;
  }
}

if (!existsSync(join(root, 'node_modules'))) step('npm', ['install', '--no-audit', '--no-fund']);
const onPath = (command) => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, command)));
if (!onPath('ffmpeg')) step('bash', ['scripts/provision.sh']);
if (!buildIsCurrent(CLI_PROJECT)) step(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', CLI_PROJECT]);
// The CLI reads process.argv from index 2 on, which holds the same arguments here as it would there.
await import(pathToFileURL(join(root, CLI_PROJECT, 'dist/cli/stems.js')).href);
