// Installs the load tester k6 (a Go module) into .tools/bin, next to the other servers provision.sh builds
// from Go module source: `go install go.k6.io/k6@K6_VERSION` with GOBIN pointing there, only when that
// version is not already installed. The first build takes a few minutes (Go's build cache makes a re-run
// cheap). k6 v1.8.1 needs Go 1.25 or newer.
//   node scripts/k6-install.mjs          installs if missing, prints the binary's path
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const K6_VERSION = process.env.K6_VERSION ?? 'v1.8.1';
const MIN_GO = [1, 25];
const BIN_DIR = join(ROOT, '.tools', 'bin');
export const K6_BIN = join(BIN_DIR, 'k6');
const STAMP = join(BIN_DIR, '.k6.version');

const log = (message) => process.stderr.write(`[k6-install] ${message}\n`);

function goVersion() {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) throw new Error('Go is not installed (k6 is built from its Go module source); install Go 1.25 or newer');
  const match = /^go(\d+)\.(\d+)/.exec(result.stdout.trim());
  if (!match) throw new Error(`cannot read the Go version from "${result.stdout.trim()}"`);
  return [Number(match[1]), Number(match[2])];
}

const installedVersion = () => (existsSync(K6_BIN) && existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null);

/** Builds k6 when it is missing or another version; returns the binary's path. */
export function ensureK6() {
  if (installedVersion() === K6_VERSION) return K6_BIN;
  const [major, minor] = goVersion();
  if (major < MIN_GO[0] || (major === MIN_GO[0] && minor < MIN_GO[1])) {
    throw new Error(`k6 ${K6_VERSION} needs Go ${MIN_GO.join('.')} or newer; this machine has go${major}.${minor}`);
  }
  mkdirSync(BIN_DIR, { recursive: true });
  log(`building k6 ${K6_VERSION} from its Go module (first time takes minutes)`);
  const result = spawnSync('go', ['install', '-trimpath', `go.k6.io/k6@${K6_VERSION}`], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: BIN_DIR, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' },
  });
  if (result.error || result.status !== 0) throw new Error(`go install go.k6.io/k6@${K6_VERSION} failed (${result.error?.message ?? `exit ${result.status}`})`);
  const check = spawnSync(K6_BIN, ['version'], { encoding: 'utf8' });
  if (check.status !== 0 || !check.stdout.includes(K6_VERSION.replace(/^v/, ''))) throw new Error(`the built k6 does not report ${K6_VERSION}: ${check.stdout}${check.stderr}`);
  writeFileSync(STAMP, `${K6_VERSION}\n`);
  log(`installed ${check.stdout.trim().split('\n')[0]} at ${K6_BIN}`);
  return K6_BIN;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${ensureK6()}\n`);
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}
