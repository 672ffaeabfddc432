// Builds skaffold into .tools/bin for test/deploy/skaffold-render.spec.ts, at the version whose schema
// helm-tools.mjs checks skaffold.yaml against (SKAFFOLD_VERSION there), from the Go module proxy only (nothing is
// fetched at test time). Skaffold's go.mod pins some dependencies with `replace`, which `go install module@version`
// refuses, so it is built as its Makefile builds a release: inside its own module source (a writable copy under
// .tools/build, removed afterwards) with the module's go.mod and go.sum, linked with its version and commit. Skipped
// when the version stamp matches; Go's build cache makes a rebuild seconds instead of minutes. Called by
// scripts/helm-tools.mjs.
//   node scripts/skaffold-tool.mjs      builds skaffold when missing, prints its path as JSON
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// The pinned version lives with the other chart tools' versions. helm-tools.mjs imports this file too: neither uses
// the other's bindings while loading, only when called, so the cycle is harmless.
import { SKAFFOLD_VERSION } from './helm-tools.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODULE = 'github.com/GoogleContainerTools/skaffold/v2';
const BIN_DIR = join(ROOT, '.tools', 'bin');
export const SKAFFOLD_BIN = join(BIN_DIR, 'skaffold');
const STAMP = join(BIN_DIR, '.skaffold.version');

function downloadModule(version) {
  const download = spawnSync('go', ['mod', 'download', '-json', `${MODULE}@${version}`], { encoding: 'utf8', cwd: BIN_DIR, env: { ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'on' } });
  if (download.error) throw new Error(`Go is not installed (skaffold is built from its Go module): ${download.error.message}`);
  if (download.status !== 0) throw new Error(`go mod download ${MODULE}@${version} failed: ${download.stderr || download.stdout}`);
  const { Dir: dir, Origin: origin } = JSON.parse(download.stdout);
  return { dir, commit: origin?.Hash ?? '' };
}

/** Builds skaffold `version` when the binary at that version is missing; returns its path. */
export function ensureSkaffold(version, log = (message) => process.stderr.write(`[skaffold-tool] ${message}\n`)) {
  if (existsSync(SKAFFOLD_BIN) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === version) return SKAFFOLD_BIN;
  mkdirSync(BIN_DIR, { recursive: true });
  log(`building skaffold ${version} from its Go module (the first time takes minutes)`);
  const { dir, commit } = downloadModule(version);
  // A folder and a binary of this process's own, so two runs at once (two test files) cannot spoil each other's
  // build; -trimpath keeps the folder's name out of the Go build cache's keys, so a rebuild reuses the cache.
  const sourceDir = join(ROOT, '.tools', 'build', `skaffold-${version}-${process.pid}`);
  const built = `${SKAFFOLD_BIN}.${process.pid}.tmp`;
  rmSync(sourceDir, { recursive: true, force: true });
  cpSync(dir, sourceDir, { recursive: true });
  // The module cache is read-only; the copy must be removable afterwards.
  spawnSync('chmod', ['-R', 'u+w', sourceDir]);
  const versionPackage = `${MODULE}/pkg/skaffold/version`;
  const ldflags = ['-s', '-w', `-X ${versionPackage}.version=${version}`, ...(commit ? [`-X ${versionPackage}.gitCommit=${commit}`] : [])];
  // As the Makefile's release build, less cgo: the static, pure-Go name resolution it asks for with tags is what
  // CGO_ENABLED=0 gives; timetzdata embeds the time zones.
  const build = spawnSync('go', ['build', '-trimpath', '-tags', 'timetzdata', `-ldflags=${ldflags.join(' ')}`, '-o', built, './cmd/skaffold'], {
    cwd: sourceDir,
    stdio: ['ignore', 2, 2], // stdout is for the JSON answer
    env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false -mod=readonly', GOTOOLCHAIN: 'local' },
  });
  rmSync(sourceDir, { recursive: true, force: true });
  if (build.error || build.status !== 0) {
    rmSync(built, { force: true });
    throw new Error(`go build of skaffold ${version} failed (${build.error?.message ?? `exit ${build.status}`})`);
  }
  chmodSync(built, 0o755);
  const check = spawnSync(built, ['version'], { encoding: 'utf8', env: { ...process.env, SKAFFOLD_UPDATE_CHECK: 'false' } });
  if (check.status !== 0 || check.stdout.trim() !== version) {
    rmSync(built, { force: true });
    throw new Error(`the built skaffold does not run or reports another version: ${check.stdout}${check.stderr}`);
  }
  renameSync(built, SKAFFOLD_BIN);
  writeFileSync(STAMP, `${version}\n`);
  log(`installed skaffold ${check.stdout.trim()}`);
  return SKAFFOLD_BIN;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${JSON.stringify({ skaffold: ensureSkaffold(SKAFFOLD_VERSION), version: SKAFFOLD_VERSION })}\n`);
  } catch (error) {
    process.stderr.write(`[skaffold-tool] ${error.message}\n`);
    process.exit(1);
  }
}
