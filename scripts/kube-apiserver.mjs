// Builds a real Kubernetes API server and the etcd it stores into, for the chart's server-side dry run
// (test/deploy/chart-server-dry-run.spec.ts), from the Go module proxy only, into .tools/bin like helm.
//
// Neither can be built with `go install module@version`: k8s.io/kubernetes points its own libraries (k8s.io/api,
// k8s.io/apiserver, ...) at ./staging/src/k8s.io/<name> with replace directives, and a module's zip leaves those
// nested modules out; go.etcd.io/etcd/server/v3 points its siblings at ../api and friends the same way. So each is
// downloaded, copied to a writable folder under .tools/build, its local-path replace directives are dropped (a
// dependency required at v0.0.0 because of one is required at the release the project publishes of it: the staging
// libraries of Kubernetes v1.X.Y are published as v0.X.Y), and the command is built with `go build` (-mod=mod fills
// go.sum for the published modules, checked against the checksum database as `go install` would). etcd is the
// version k8s.io/kubernetes' go.mod requires. Go's build cache ($HOME/.cache/go-build) makes a rebuild minutes
// shorter than the first; the copies are removed after the build. Called by scripts/helm-tools.mjs.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN_DIR = join(ROOT, '.tools', 'bin');
const BUILD_DIR = join(ROOT, '.tools', 'build');
export const KUBE_APISERVER_BIN = join(BIN_DIR, 'kube-apiserver');
export const ETCD_BIN = join(BIN_DIR, 'etcd');

const stampOf = (name) => join(BIN_DIR, `.${name}.version`);
const installed = (bin, name) => (existsSync(bin) && existsSync(stampOf(name)) ? readFileSync(stampOf(name), 'utf8').trim() : null);

function moduleDir(module) {
  const download = spawnSync('go', ['mod', 'download', '-json', module], { encoding: 'utf8', cwd: BIN_DIR, env: { ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'on' } });
  if (download.error || download.status !== 0) throw new Error(`go mod download ${module} failed: ${download.error?.message ?? (download.stderr || download.stdout)}`);
  return JSON.parse(download.stdout).Dir;
}

/** The module cache is read-only; the copy must be writable to edit go.mod and let go write go.sum. */
function makeWritable(path) {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.mode | 0o200);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makeWritable(join(path, entry));
}

/**
 * Drops the replace directives that point at local folders (one-line and block form); a module that was required at
 * v0.0.0 only because such a directive supplied it is required at `publishedVersion` instead.
 */
export function withoutLocalReplaces(goMod, publishedVersion) {
  const local = /^\s*(\S+)(?:\s+\S+)?\s*=>\s*\.{1,2}\/\S*\s*$/;
  const replaced = new Set();
  const kept = [];
  let inReplaceBlock = false;
  for (const line of goMod.split('\n')) {
    if (/^replace\s*\($/.test(line.trim())) {
      inReplaceBlock = true;
      kept.push(line);
      continue;
    }
    if (inReplaceBlock && line.trim() === ')') inReplaceBlock = false;
    const directive = inReplaceBlock ? line : line.replace(/^replace\s+/, '');
    const match = (inReplaceBlock || /^replace\s/.test(line)) && local.exec(directive);
    if (match) {
      replaced.add(match[1]);
      continue;
    }
    kept.push(line);
  }
  const text = kept.join('\n').replace(/^replace\s*\(\s*\)\s*$/gm, '');
  return text.replace(/^(\s*(?:require\s+)?)(\S+) v0\.0\.0(\s*(?:\/\/.*)?)$/gm, (line, lead, module, rest) => {
    if (!replaced.has(module)) return line;
    if (!publishedVersion) throw new Error(`${module} is required at v0.0.0 through a local replace and no published version was given`);
    return `${lead}${module} ${publishedVersion}${rest}`;
  });
}

function buildFromModule({ name, module, version, pkg, bin, publishedVersion, ldflags, versionArgs, log }) {
  const stamp = `${module}@${version} ${ldflags.join(' ')}`.trim();
  if (installed(bin, name) === stamp) return;
  mkdirSync(BIN_DIR, { recursive: true });
  const started = Date.now();
  log(`building ${name} from ${module}@${version} (the first time takes many minutes; Go's build cache makes later builds shorter)`);
  // Per process, so two test runs building at once do not share a folder; the binary is renamed into place whole.
  const work = join(BUILD_DIR, `${name}-${process.pid}`);
  const output = `${bin}.${process.pid}.tmp`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(BUILD_DIR, { recursive: true });
  cpSync(moduleDir(`${module}@${version}`), work, { recursive: true });
  makeWritable(work);
  // A go.work beside go.mod would bring the staging folders back.
  rmSync(join(work, 'go.work'), { force: true });
  rmSync(join(work, 'go.work.sum'), { force: true });
  writeFileSync(join(work, 'go.mod'), withoutLocalReplaces(readFileSync(join(work, 'go.mod'), 'utf8'), publishedVersion));
  const env = { ...process.env, GOWORK: 'off', GOFLAGS: '-mod=mod -buildvcs=false', CGO_ENABLED: '0' };
  const result = spawnSync('go', ['build', '-trimpath', `-ldflags=${['-s', '-w', ...ldflags].join(' ')}`, '-o', output, pkg], { cwd: work, stdio: ['ignore', process.stderr, 'inherit'], env });
  rmSync(work, { recursive: true, force: true });
  if (result.error || result.status !== 0) {
    rmSync(output, { force: true });
    throw new Error(`go build ${pkg} in ${module}@${version} failed (${result.error?.message ?? `exit ${result.status}`})`);
  }
  const check = spawnSync(output, versionArgs, { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(output, { force: true });
    throw new Error(`the built ${name} does not run: ${check.stdout}${check.stderr}`);
  }
  renameSync(output, bin);
  writeFileSync(stampOf(name), `${stamp}\n`);
  log(`installed ${name} in ${Math.round((Date.now() - started) / 1000)} s: ${check.stdout.trim().split('\n')[0]}`);
}

/** Builds kube-apiserver of `kubernetesVersion` (e.g. v1.35.4) and the etcd its go.mod requires; returns their paths. */
export function ensureKubeApiserver(kubernetesVersion, log = (message) => process.stderr.write(`[kube-apiserver] ${message}\n`)) {
  const match = /^v1\.(\d+)\.(\d+)$/.exec(kubernetesVersion);
  if (!match) throw new Error(`not a Kubernetes release version: ${kubernetesVersion}`);
  mkdirSync(BIN_DIR, { recursive: true });
  const kubernetes = moduleDir(`k8s.io/kubernetes@${kubernetesVersion}`);
  const etcdVersion = /^\s*go\.etcd\.io\/etcd\/server\/v3 (v\S+)/m.exec(readFileSync(join(kubernetes, 'go.mod'), 'utf8'))?.[1];
  if (!etcdVersion) throw new Error(`k8s.io/kubernetes@${kubernetesVersion} does not require go.etcd.io/etcd/server/v3`);
  // What `kube-apiserver --version` and /version report, as the release build stamps them.
  const stampVersion = (name, value) => `-X k8s.io/component-base/version.${name}=${value}`;
  buildFromModule({
    name: 'kube-apiserver', module: 'k8s.io/kubernetes', version: kubernetesVersion, pkg: './cmd/kube-apiserver', bin: KUBE_APISERVER_BIN,
    publishedVersion: `v0.${match[1]}.${match[2]}`, versionArgs: ['--version'], log,
    ldflags: [stampVersion('gitVersion', kubernetesVersion), stampVersion('gitMajor', '1'), stampVersion('gitMinor', match[1]), stampVersion('gitTreeState', 'clean')],
  });
  buildFromModule({
    name: 'etcd', module: 'go.etcd.io/etcd/server/v3', version: etcdVersion, pkg: '.', bin: ETCD_BIN, publishedVersion: undefined, versionArgs: ['--version'], log, ldflags: [],
  });
  return { kubeApiserver: KUBE_APISERVER_BIN, etcd: ETCD_BIN, etcdVersion };
}
