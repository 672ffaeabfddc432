// The chart's rendered objects sent to a real Kubernetes API server, as `kubectl apply --dry-run=server` would send
// them: kube-apiserver of the pinned Kubernetes version over its own etcd, both built from their Go modules by
// scripts/kube-apiserver.mjs (through scripts/helm-tools.mjs, cached in .tools/bin) and started here on 127.0.0.1
// with free ports and a temporary folder. Every object is created with dryRun=All and strict field validation, so
// the server runs its own validation, defaulting and admission (PodSecurity at the restricted level warns) on it and
// stores nothing; it catches what a schema cannot, such as a Deployment whose selector misses its pod labels.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// js-yaml comes with jest (its coverage loader).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { safeLoad, safeLoadAll } = require('js-yaml') as { safeLoad: (text: string) => unknown; safeLoadAll: (text: string) => unknown[] };

const ROOT = resolve(__dirname, '..', '..');
const CHART = join(ROOT, 'deploy', 'helm', 'stemdeck');
const RELEASE = 'studio';
const NAMESPACE = 'stemdeck';
/** The documented values files, and the defaults with every optional object on (KEDA, NetworkPolicies, Ingress). */
const RENDERS: Array<{ name: string; args: string[] }> = [
  { name: 'default values', args: [] },
  { name: 'deploy/helm/values-upstream.yaml', args: ['-f', join(ROOT, 'deploy', 'helm', 'values-upstream.yaml')] },
  { name: 'deploy/helm/values-dev.yaml', args: ['-f', join(ROOT, 'deploy', 'helm', 'values-dev.yaml')] },
  { name: 'KEDA, NetworkPolicies and Ingress on', args: ['--set', 'media.keda.enabled=true,networkPolicy.enabled=true,gateway.ingress.enabled=true'] },
];
const MINUTE = 60_000;

type Tools = { helm: string; kubernetesVersion: string; apiServer?: { kubeApiserver: string; etcd: string; etcdVersion: string; crds: string[] } | { error: string } };
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any };
type Answer = { status: number; body: any; warnings: string[] };

const work = mkdtempSync(join(tmpdir(), 'stemdeck-dry-run-'));
const helmEnv = { ...process.env, HELM_CACHE_HOME: join(work, 'helm', 'cache'), HELM_CONFIG_HOME: join(work, 'helm', 'config'), HELM_DATA_HOME: join(work, 'helm', 'data') };
const token = randomBytes(24).toString('hex');
const timings: Record<string, number> = {};
let tools: Tools;
let crdFiles: string[];
let port: number;
let ca: Buffer;
const servers: Array<{ name: string; child: ChildProcess; log: string }> = [];

const freePort = () =>
  new Promise<number>((resolveWith) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolveWith(free));
    });
  });

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function start(name: string, bin: string, args: string[]) {
  const log = join(work, `${name}.log`);
  const out = openSync(log, 'w');
  const child = spawn(bin, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  servers.push({ name, child, log });
  return child;
}

const logTail = (name: string) => {
  const server = servers.find((s) => s.name === name);
  return server && existsSync(server.log) ? readFileSync(server.log, 'utf8').split('\n').slice(-30).join('\n') : '';
};

/** Polls `check` until it holds, failing with the server's own log when it does not within `timeoutMs`. */
async function until(name: string, what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exited = servers.find((s) => s.name === name)?.child.exitCode;
    if (exited !== null && exited !== undefined) throw new Error(`${name} exited (${exited}) before ${what}:\n${logTail(name)}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${name}: no ${what} within ${timeoutMs / 1000} s:\n${logTail(name)}`);
    await sleep(250);
  }
}

/** One request to the API server as the test's admin user, trusting only the server's own self-signed certificate. */
function api(method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolveWith, reject) => {
    const req = request(
      {
        host: '127.0.0.1', port, path, method, ca, timeout: 30_000,
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // /readyz answers plain text
          }
          const warning = res.headers.warning;
          // Warning: 299 - "text", quoted as in RFC 7234 (several in one header are comma-separated)
          const warnings = (Array.isArray(warning) ? warning : warning ? [warning] : []).flatMap((w) => {
            const texts = [...w.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
            return texts.length > 0 ? texts : [w];
          });
          resolveWith({ status: res.statusCode ?? 0, body: parsed, warnings });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const discovery = new Map<string, Promise<Answer>>();
/** The collection URL of an object's kind, from the server's discovery document of its group and version. */
async function collectionPath(object: K8sObject) {
  const base = object.apiVersion.includes('/') ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  if (!discovery.has(base)) discovery.set(base, api('GET', base));
  const answer = await discovery.get(base)!;
  if (answer.status !== 200) throw new Error(`the server does not serve ${object.apiVersion} (GET ${base}: ${answer.status})`);
  const resource = (answer.body.resources as Array<{ name: string; kind: string; namespaced: boolean }>).find((r) => r.kind === object.kind && !r.name.includes('/'));
  if (!resource) throw new Error(`the server serves no ${object.kind} in ${object.apiVersion}`);
  return resource.namespaced ? `${base}/namespaces/${object.metadata.namespace ?? NAMESPACE}/${resource.name}` : `${base}/${resource.name}`;
}

/** Creates the object with dryRun=All: validated, defaulted and admitted as a real create, and not stored. */
async function dryRunCreate(object: K8sObject) {
  const path = await collectionPath(object);
  return api('POST', `${path}?dryRun=All&fieldValidation=Strict&fieldManager=stemdeck-chart-spec`, object);
}

const rendered = new Map<string, K8sObject[]>();
function render(args: string[]): K8sObject[] {
  const cached = rendered.get(args.join('\0'));
  if (cached) return structuredClone(cached);
  const result = spawnSync(tools.helm, ['template', RELEASE, CHART, '--namespace', NAMESPACE, '--kube-version', tools.kubernetesVersion, ...args], { encoding: 'utf8', env: helmEnv, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`helm template ${args.join(' ')} failed:\n${result.stderr}`);
  const objects = safeLoadAll(result.stdout).filter((doc): doc is K8sObject => !!doc && typeof doc === 'object');
  rendered.set(args.join('\0'), objects);
  return structuredClone(objects);
}

beforeAll(async () => {
  // Builds helm, kube-apiserver and etcd on the first run (many minutes; npm test does it before the stack starts).
  let began = Date.now();
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'helm-tools.mjs'), '--api-server'], { encoding: 'utf8', timeout: 55 * MINUTE });
  if (result.status !== 0) throw new Error(`scripts/helm-tools.mjs could not provide helm: ${result.error?.message ?? ''}\n${result.stderr}`);
  tools = JSON.parse(result.stdout) as Tools;
  if (!tools.apiServer || 'error' in tools.apiServer) throw new Error(`kube-apiserver and etcd could not be built from their Go modules: ${tools.apiServer && 'error' in tools.apiServer ? tools.apiServer.error : 'not reported'}\n${result.stderr}`);
  const { kubeApiserver, etcd } = tools.apiServer;
  crdFiles = tools.apiServer.crds;
  timings.tools = Date.now() - began;

  began = Date.now();
  const [etcdClient, etcdPeer] = [await freePort(), await freePort()];
  start('etcd', etcd, [
    '--name', 'dry-run', '--data-dir', join(work, 'etcd'), '--log-level', 'warn',
    '--listen-client-urls', `http://127.0.0.1:${etcdClient}`, '--advertise-client-urls', `http://127.0.0.1:${etcdClient}`,
    '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
    '--initial-cluster', `dry-run=http://127.0.0.1:${etcdPeer}`,
    // A throwaway store: nothing in it must survive a crash.
    '--unsafe-no-fsync',
  ]);
  await until('etcd', 'health', async () => (await (await fetch(`http://127.0.0.1:${etcdClient}/health`)).json()).health === 'true', 2 * MINUTE);
  timings.etcdStart = Date.now() - began;

  began = Date.now();
  port = await freePort();
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  writeFileSync(join(work, 'sa.pub'), keys.publicKey);
  writeFileSync(join(work, 'sa.key'), keys.privateKey);
  // token,user,uid,"groups": an administrator (system:masters passes every RBAC check), as a cluster admin applies the chart.
  writeFileSync(join(work, 'tokens.csv'), `${token},stemdeck-chart-spec,stemdeck-chart-spec,"system:masters"\n`);
  const certDir = join(work, 'certs');
  mkdirSync(certDir);
  start('kube-apiserver', kubeApiserver, [
    '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${port}`,
    // With no certificate given, the server writes a self-signed one (its CA beside it) for 127.0.0.1 here.
    `--cert-dir=${certDir}`,
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    `--token-auth-file=${join(work, 'tokens.csv')}`, '--anonymous-auth=false', '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc', `--service-account-key-file=${join(work, 'sa.pub')}`, `--service-account-signing-key-file=${join(work, 'sa.key')}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // Request queueing across tenants is a traffic concern, not a validation one; off, the server is ready sooner.
    '--enable-priority-and-fairness=false',
    '--profiling=false',
  ]);
  const certFile = join(certDir, 'apiserver.crt');
  await until('kube-apiserver', 'serving certificate', async () => existsSync(certFile), 2 * MINUTE);
  ca = readFileSync(certFile);
  await until('kube-apiserver', 'readiness (/readyz 200)', async () => (await api('GET', '/readyz')).status === 200, 4 * MINUTE);
  timings.apiServerStart = Date.now() - began;

  began = Date.now();
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE, labels: { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/warn-version': 'latest' } } };
  const created = await api('POST', '/api/v1/namespaces', namespace);
  if (created.status !== 201) throw new Error(`creating namespace ${NAMESPACE}: ${created.status} ${JSON.stringify(created.body)}`);
  for (const file of crdFiles) {
    const crd = safeLoad(readFileSync(file, 'utf8')) as { metadata: { name: string }; spec: { group: string; versions: Array<{ name: string; served: boolean }> } };
    const answer = await api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (answer.status !== 201) throw new Error(`creating CRD ${crd.metadata.name}: ${answer.status} ${answer.body?.message ?? JSON.stringify(answer.body)}`);
    const established = async () =>
      ((await api('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`)).body.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
    await until('kube-apiserver', `CRD ${crd.metadata.name} established`, established, MINUTE);
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      await until('kube-apiserver', `discovery of ${crd.spec.group}/${version.name}`, async () => (await api('GET', `/apis/${crd.spec.group}/${version.name}`)).status === 200, MINUTE);
    }
  }
  timings.setup = Date.now() - began;
}, 60 * MINUTE);

afterAll(async () => {
  for (const { child } of [...servers].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((done) => (timer = setTimeout(done, 15_000)))]);
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(work, { recursive: true, force: true });
  const seconds = (ms?: number) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
  process.stderr.write(`[chart-server-dry-run] tools ${seconds(timings.tools)}, etcd ready ${seconds(timings.etcdStart)}, kube-apiserver ready ${seconds(timings.apiServerStart)}, namespace and CRDs ${seconds(timings.setup)}\n`);
}, 2 * MINUTE);

describe.each(RENDERS.map((r) => [r.name, r.args] as const))('chart rendered with %s', (_name, args) => {
  it('is accepted object by object by kube-apiserver (dry run, strict fields) without PodSecurity or deprecation warnings', async () => {
    const objects = render(args);
    expect(objects.filter((o) => o.kind === 'Deployment')).toHaveLength(5);
    const refusals: string[] = [];
    const warnings: string[] = [];
    for (const object of objects) {
      const answer = await dryRunCreate(object);
      const what = `${object.kind}/${object.metadata.name}`;
      if (answer.status !== 201 && answer.status !== 200) refusals.push(`${what}: ${answer.status} ${answer.body?.message ?? JSON.stringify(answer.body)}`);
      else expect(answer.body).toMatchObject({ kind: object.kind, metadata: { name: object.metadata.name, namespace: expect.any(String) } });
      warnings.push(...answer.warnings.map((w) => `${what}: ${w}`));
    }
    expect(refusals).toEqual([]);
    expect(warnings).toEqual([]);
  }, 5 * MINUTE);
});

it('renders, across these values, every kind the chart\'s templates hold, so each kind goes to the server', () => {
  const templateKinds = readdirSync(join(CHART, 'templates'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => [...readFileSync(join(CHART, 'templates', file), 'utf8').matchAll(/^kind: (\w+)$/gm)].map((m) => m[1]));
  const renderedKinds = new Set(RENDERS.flatMap((r) => render(r.args).map((o) => o.kind)));
  expect(templateKinds).toContain('ScaledObject');
  expect([...renderedKinds].sort()).toEqual([...new Set(templateKinds)].sort());
});

it('warns about a pod template that the restricted Pod Security level forbids', async () => {
  const deployment = render([]).find((o) => o.kind === 'Deployment')!;
  const [container, ...others] = deployment.spec.template.spec.containers;
  const loosened = { ...container, securityContext: { ...container.securityContext, allowPrivilegeEscalation: true } };
  const answer = await dryRunCreate({ ...deployment, spec: { ...deployment.spec, template: { ...deployment.spec.template, spec: { ...deployment.spec.template.spec, containers: [loosened, ...others] } } } });
  expect(answer.status).toBe(201);
  expect(answer.warnings.join('\n')).toMatch(/would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
});

it('refuses a Deployment whose selector does not match its pod template labels, with the server\'s reason', async () => {
  const deployment = render([]).find((o) => o.kind === 'Deployment')!;
  // Valid against the OpenAPI schema (kubeconform passes it); only the server's own validation sees the mismatch.
  const broken = { ...deployment, spec: { ...deployment.spec, template: { ...deployment.spec.template, metadata: { ...deployment.spec.template.metadata, labels: { 'app.kubernetes.io/name': 'something-else' } } } } };
  const answer = await dryRunCreate(broken);
  expect(answer.status).toBe(422);
  expect(answer.body.message).toMatch(/spec\.template\.metadata\.labels.*`selector` does not match template `labels`/);
});

it('refuses an object with a field the API does not have (strict field validation)', async () => {
  const configMap = render([]).find((o) => o.kind === 'ConfigMap')!;
  const answer = await dryRunCreate({ ...configMap, metadata: { ...configMap.metadata, labelz: { a: 'b' } } } as K8sObject);
  expect(answer.status).toBe(400);
  expect(answer.body.message).toMatch(/unknown field "metadata\.labelz"/);
});

it('stored nothing: the dry runs left the namespace empty', async () => {
  for (const collection of ['/apis/apps/v1/namespaces/stemdeck/deployments', '/api/v1/namespaces/stemdeck/secrets', '/api/v1/namespaces/stemdeck/configmaps', '/apis/batch/v1/namespaces/stemdeck/jobs']) {
    const answer = await api('GET', collection);
    expect(answer.status).toBe(200);
    expect(answer.body.items).toEqual([]);
  }
});
