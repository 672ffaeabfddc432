// Installs what the chart tests need into .tools, from the Go module proxy only (nothing is fetched at test
// time): `helm` (helm.sh/helm/v3/cmd/helm) and `kubeconform` (github.com/yannh/kubeconform/cmd/kubeconform),
// built with `go install` into .tools/bin, and the Kubernetes API's JSON schemas for one pinned Kubernetes
// version, generated from the OpenAPI document that ships inside the k8s.io/kubernetes module
// (api/openapi-spec/swagger.json) into .tools/k8s-schemas/<version>-standalone-strict/<kind>-<group>-<version>.json,
// the layout kubeconform reads; the schema of KEDA's ScaledObject from its CRD in the KEDA module, and skaffold.yaml's
// JSON schema from the Skaffold module. Each part is skipped when its version stamp matches, so a re-run is instant.
// With the API server (what `npm test` asks for), also kube-apiserver of that Kubernetes version and its etcd, for the
// server-side dry run (scripts/kube-apiserver.mjs); their failure is reported in the result, not thrown.
//   node scripts/helm-tools.mjs [--api-server]   installs what is missing, prints the paths as JSON
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ensureKubeApiserver } from './kube-apiserver.mjs';
import { ensureSkaffold } from './skaffold-tool.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const HELM_VERSION = 'v3.21.4';
export const KUBECONFORM_VERSION = 'v0.8.0';
/** The Kubernetes version whose API the rendered chart is validated against. */
export const KUBERNETES_VERSION = 'v1.35.4';
/** KEDA, whose ScaledObject CRD (config/crd/bases in its Go module) validates the chart's optional ScaledObject. */
export const KEDA_VERSION = 'v2.17.2';
/** Skaffold, whose JSON schema for skaffold.yaml's apiVersion (docs-v2/content/en/schemas in its Go module) checks skaffold.yaml. */
export const SKAFFOLD_VERSION = 'v2.16.1';
export const SKAFFOLD_API_VERSION = 'v4beta11';
export const SKAFFOLD_SCHEMA_DIR = join(ROOT, '.tools', 'skaffold-schemas');
const MIN_GO = [1, 26];
const BIN_DIR = join(ROOT, '.tools', 'bin');
export const HELM_BIN = join(BIN_DIR, 'helm');
export const KUBECONFORM_BIN = join(BIN_DIR, 'kubeconform');
export const SCHEMA_ROOT = join(ROOT, '.tools', 'k8s-schemas');
export const SCHEMA_DIR = join(SCHEMA_ROOT, `${KUBERNETES_VERSION}-standalone-strict`);

const log = (message) => process.stderr.write(`[helm-tools] ${message}\n`);
const stampOf = (name) => join(BIN_DIR, `.${name}.version`);
const installed = (bin, name) => (existsSync(bin) && existsSync(stampOf(name)) ? readFileSync(stampOf(name), 'utf8').trim() : null);
const goEnv = { ...process.env, GOBIN: BIN_DIR, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };

function checkGo() {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) throw new Error('Go is not installed (helm and kubeconform are built from their Go modules); install Go 1.26 or newer');
  const match = /^go(\d+)\.(\d+)/.exec(result.stdout.trim());
  if (!match) throw new Error(`cannot read the Go version from "${result.stdout.trim()}"`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major < MIN_GO[0] || (major === MIN_GO[0] && minor < MIN_GO[1])) throw new Error(`helm ${HELM_VERSION} needs Go ${MIN_GO.join('.')} or newer; this machine has go${major}.${minor}`);
}

function goInstall(name, pkg, version, bin, versionArgs, ldflags = []) {
  const stamp = ldflags.length ? `${version} ${ldflags.join(' ')}` : version;
  if (installed(bin, name) === stamp) return;
  checkGo();
  mkdirSync(BIN_DIR, { recursive: true });
  log(`building ${name} ${version} from its Go module (the first time takes minutes)`);
  const result = spawnSync('go', ['install', '-trimpath', `-ldflags=${['-s', '-w', ...ldflags].join(' ')}`, `${pkg}@${version}`], { stdio: 'inherit', env: goEnv });
  if (result.error || result.status !== 0) throw new Error(`go install ${pkg}@${version} failed (${result.error?.message ?? `exit ${result.status}`})`);
  const check = spawnSync(bin, versionArgs, { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`the built ${name} does not run: ${check.stdout}${check.stderr}`);
  writeFileSync(stampOf(name), `${stamp}\n`);
  log(`installed ${name}: ${check.stdout.trim().split('\n')[0]}`);
}

/** Rewrites "#/definitions/x" references into the definitions themselves (recursion is cut to an open object). */
function inline(node, definitions, strict, stack) {
  if (Array.isArray(node)) return node.map((item) => inline(item, definitions, strict, stack));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/definitions/', '');
    if (stack.includes(name)) return { type: 'object' }; // JSONSchemaProps refers to itself; not used by the chart
    return inline(definitions[name], definitions, strict, [...stack, name]);
  }
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, definitions, strict, stack)])) : inline(value, definitions, strict, stack);
  }
  // The OpenAPI "int-or-string" format (ports, maxUnavailable) accepts either; the document says type string only.
  if (out.format === 'int-or-string') return { oneOf: [{ type: 'string' }, { type: 'integer' }] };
  if (strict && out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function generateSchemas() {
  const stamp = join(SCHEMA_DIR, '.version');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === KUBERNETES_VERSION) return;
  checkGo();
  log(`downloading k8s.io/kubernetes@${KUBERNETES_VERSION} through the Go module proxy for its OpenAPI document`);
  const swagger = JSON.parse(readFileSync(join(moduleDir(`k8s.io/kubernetes@${KUBERNETES_VERSION}`), 'api', 'openapi-spec', 'swagger.json'), 'utf8'));
  rmSync(SCHEMA_DIR, { recursive: true, force: true });
  mkdirSync(SCHEMA_DIR, { recursive: true });
  let count = 0;
  for (const [name, definition] of Object.entries(swagger.definitions)) {
    for (const gvk of definition['x-kubernetes-group-version-kind'] ?? []) {
      if (gvk.kind.endsWith('List') || ['DeleteOptions', 'WatchEvent', 'Status', 'APIResourceList', 'APIGroup', 'APIGroupList', 'APIVersions'].includes(gvk.kind)) continue;
      const schema = inline(definition, swagger.definitions, true, [name]);
      const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
      schema.properties = { ...schema.properties, apiVersion: { type: 'string', enum: [apiVersion] }, kind: { type: 'string', enum: [gvk.kind] } };
      schema.$schema = 'http://json-schema.org/schema#';
      // kubeconform's file name: kind, then the first label of the group, then the version, lower case
      const suffix = gvk.group ? `-${gvk.group.split('.')[0]}-${gvk.version}` : `-${gvk.version}`;
      writeFileSync(join(SCHEMA_DIR, `${gvk.kind.toLowerCase()}${suffix.toLowerCase()}.json`), JSON.stringify(schema));
      count += 1;
    }
  }
  if (count < 50) throw new Error(`only ${count} schemas came out of the Kubernetes OpenAPI document`);
  writeFileSync(stamp, `${KUBERNETES_VERSION}\n`);
  log(`wrote ${count} Kubernetes ${KUBERNETES_VERSION} schemas to ${SCHEMA_DIR}`);
}

function moduleDir(module) {
  const download = spawnSync('go', ['mod', 'download', '-json', module], { encoding: 'utf8', cwd: BIN_DIR, env: { ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'on' } });
  if (download.error || download.status !== 0) throw new Error(`go mod download ${module} failed: ${download.error?.message ?? (download.stderr || download.stdout)}`);
  return JSON.parse(download.stdout).Dir;
}

/** Open objects stay open (x-kubernetes-preserve-unknown-fields); the rest reject unknown fields, like kubeconform's strict schemas. */
function strictCrdSchema(node) {
  if (Array.isArray(node)) return node.map(strictCrdSchema);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictCrdSchema(v)])) : strictCrdSchema(value)]));
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}

function generateKedaSchema() {
  const target = join(SCHEMA_DIR, 'scaledobject-keda-v1alpha1.json');
  const stamp = join(SCHEMA_DIR, '.keda.version');
  if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === KEDA_VERSION) return;
  checkGo();
  // js-yaml comes with jest (installed before this runs); the CRD is YAML.
  let yaml;
  try {
    yaml = createRequire(join(ROOT, 'package.json'))('js-yaml');
  } catch {
    throw new Error('js-yaml (installed with jest) is missing: run npm install first (npm test does)');
  }
  const crd = yaml.safeLoad(readFileSync(join(moduleDir(`github.com/kedacore/keda/v2@${KEDA_VERSION}`), 'config', 'crd', 'bases', 'keda.sh_scaledobjects.yaml'), 'utf8'));
  const version = crd.spec.versions.find((v) => v.name === 'v1alpha1');
  const schema = strictCrdSchema(version.schema.openAPIV3Schema);
  schema.properties = { ...schema.properties, apiVersion: { type: 'string', enum: ['keda.sh/v1alpha1'] }, kind: { type: 'string', enum: ['ScaledObject'] } };
  schema.properties.metadata = { type: 'object' };
  writeFileSync(target, JSON.stringify(schema));
  writeFileSync(stamp, `${KEDA_VERSION}\n`);
  log(`wrote KEDA ${KEDA_VERSION} ScaledObject schema`);
}

/** Skaffold's own schema, named as kubeconform looks it up (kind Config, group skaffold, version). */
function copySkaffoldSchema() {
  const target = join(SKAFFOLD_SCHEMA_DIR, `config-skaffold-${SKAFFOLD_API_VERSION}.json`);
  const stamp = join(SKAFFOLD_SCHEMA_DIR, '.version');
  if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === SKAFFOLD_VERSION) return;
  checkGo();
  log(`downloading github.com/GoogleContainerTools/skaffold/v2@${SKAFFOLD_VERSION} (45 MB, once) for its ${SKAFFOLD_API_VERSION} schema`);
  const source = join(moduleDir(`github.com/GoogleContainerTools/skaffold/v2@${SKAFFOLD_VERSION}`), 'docs-v2', 'content', 'en', 'schemas', `${SKAFFOLD_API_VERSION}.json`);
  mkdirSync(SKAFFOLD_SCHEMA_DIR, { recursive: true });
  writeFileSync(target, readFileSync(source));
  writeFileSync(stamp, `${SKAFFOLD_VERSION}\n`);
}

/**
 * Installs helm, kubeconform and the schemas when missing; returns their paths. With `apiServer` (the default, as
 * `npm test` calls it) also kube-apiserver and etcd, under `apiServer` in the result, or the reason they could not
 * be built (`apiServer.error`): the dry run's spec reports that, the chart's other checks go on.
 */
export function ensureHelmTools({ apiServer = true } = {}) {
  // As helm's Makefile links a release: its own version, and the Kubernetes version that lint and template assume
  // (the pinned one, so a chart is checked against the API it is validated for).
  const [k8sMajor, k8sMinor] = KUBERNETES_VERSION.replace(/^v/, '').split('.');
  goInstall('helm', 'helm.sh/helm/v3/cmd/helm', HELM_VERSION, HELM_BIN, ['version', '--short'], [
    `-X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}`,
    ...['pkg/lint/rules', 'pkg/chartutil'].flatMap((where) => [`-X helm.sh/helm/v3/${where}.k8sVersionMajor=${k8sMajor}`, `-X helm.sh/helm/v3/${where}.k8sVersionMinor=${k8sMinor}`]),
  ]);
  goInstall('kubeconform', 'github.com/yannh/kubeconform/cmd/kubeconform', KUBECONFORM_VERSION, KUBECONFORM_BIN, ['-v']);
  generateSchemas();
  generateKedaSchema();
  copySkaffoldSchema();
  try {
    ensureSkaffold(SKAFFOLD_VERSION, log); // skaffold render's spec reports a failure; the chart's checks go on
  } catch (error) {
    log(`skaffold unavailable: ${error.message}`);
  }
  const tools = { helm: HELM_BIN, kubeconform: KUBECONFORM_BIN, schemaDir: SCHEMA_DIR, kubernetesVersion: KUBERNETES_VERSION, skaffoldSchemaDir: SKAFFOLD_SCHEMA_DIR };
  if (!apiServer) return tools;
  try {
    // The CRDs the chart's optional objects need on a server: KEDA's ScaledObject.
    const crds = [join(moduleDir(`github.com/kedacore/keda/v2@${KEDA_VERSION}`), 'config', 'crd', 'bases', 'keda.sh_scaledobjects.yaml')];
    return { ...tools, apiServer: { ...ensureKubeApiserver(KUBERNETES_VERSION, log), crds } };
  } catch (error) {
    log(`kube-apiserver unavailable (the server-side dry run reports it): ${error.message}`);
    return { ...tools, apiServer: { error: error.message } };
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${JSON.stringify(ensureHelmTools({ apiServer: process.argv.includes('--api-server') }))}\n`);
  } catch (error) {
    log(error.message);
    process.exit(1);
  }
}
