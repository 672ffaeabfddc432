// The Helm chart, as an operator's CI would check it: `helm lint --strict`, `helm template` for the default
// values and every documented values file, the rendered manifests against the Kubernetes API schemas of a pinned
// version (kubeconform, schemas generated from the OpenAPI document in the k8s.io/kubernetes Go module), the
// platform team's policies over the rendered objects, and values.schema.json with good and bad values.
// helm, kubeconform and the schemas are built by scripts/helm-tools.mjs from the Go module proxy (cached in .tools).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// js-yaml comes with jest (its coverage loader); only its loadAll is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { safeLoadAll } = require('js-yaml') as { safeLoadAll: (text: string) => unknown[] };

const ROOT = resolve(__dirname, '..', '..');
const CHART = join(ROOT, 'deploy', 'helm', 'stemdeck');
const FIXTURES = join(__dirname, 'fixtures');
/** Every values file the README documents; undefined is the chart's own defaults. */
const VALUES_FILES: Array<string | undefined> = [undefined, join(ROOT, 'deploy', 'helm', 'values-upstream.yaml'), join(ROOT, 'deploy', 'helm', 'values-dev.yaml')];
const PROCESSES = ['gateway', 'media', 'jobs', 'sessions', 'export'] as const;
const RELEASE = 'studio';

type Tools = { helm: string; kubeconform: string; schemaDir: string; kubernetesVersion: string; skaffoldSchemaDir: string };
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: Record<string, string>; automountServiceAccountToken?: boolean };

let tools: Tools;
const helmHome = mkdtempSync(join(tmpdir(), 'stemdeck-helm-'));
const helmEnv = { ...process.env, HELM_CACHE_HOME: join(helmHome, 'cache'), HELM_CONFIG_HOME: join(helmHome, 'config'), HELM_DATA_HOME: join(helmHome, 'data') };
const label = (file: string | undefined) => (file ? file.slice(ROOT.length + 1) : 'default values');

function helm(args: string[]) {
  const result = spawnSync(tools.helm, args, { encoding: 'utf8', env: helmEnv, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const rendered = new Map<string | undefined, { text: string; objects: K8sObject[] }>();
function render(valuesFile: string | undefined) {
  const cached = rendered.get(valuesFile);
  if (cached) return cached;
  const result = helm(['template', RELEASE, CHART, '--namespace', 'stemdeck', '--kube-version', tools.kubernetesVersion, ...(valuesFile ? ['-f', valuesFile] : [])]);
  if (result.status !== 0) throw new Error(`helm template (${label(valuesFile)}) failed:\n${result.stderr}`);
  const objects = safeLoadAll(result.stdout).filter((doc): doc is K8sObject => !!doc && typeof doc === 'object');
  const entry = { text: result.stdout, objects };
  rendered.set(valuesFile, entry);
  return entry;
}

function kubeconform(files: string[]) {
  const location = join(tools.schemaDir, '..', '{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}', '{{ .ResourceKind }}{{ .KindSuffix }}.json');
  const args = ['-strict', '-summary', '-kubernetes-version', tools.kubernetesVersion.replace(/^v/, ''), '-schema-location', location, ...files];
  return spawnSync(tools.kubeconform, args, { encoding: 'utf8' });
}

const workloads = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
const podSpec = (o: K8sObject) => o.spec.template.spec;

beforeAll(() => {
  // Builds the tools on the first run (minutes); cached afterwards. A failure names what is missing.
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'helm-tools.mjs')], { encoding: 'utf8', timeout: 25 * 60 * 1000 });
  if (result.status !== 0) throw new Error(`scripts/helm-tools.mjs could not provide helm, kubeconform and the Kubernetes schemas: ${result.error?.message ?? ''}\n${result.stderr}`);
  tools = JSON.parse(result.stdout) as Tools;
}, 26 * 60 * 1000);

describe.each(VALUES_FILES.map((file) => [label(file), file] as const))('chart with %s', (_name, valuesFile) => {
  it('passes helm lint --strict', () => {
    const result = helm(['lint', '--strict', CHART, ...(valuesFile ? ['-f', valuesFile] : [])]);
    expect(`${result.stdout}${result.stderr}`).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it('renders a Deployment per process and validates against the Kubernetes API schemas', () => {
    const { text, objects } = render(valuesFile);
    expect(workloads(objects).filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name).sort()).toEqual(PROCESSES.map((p) => `${RELEASE}-stemdeck-${p}`).sort());
    const dir = mkdtempSync(join(tmpdir(), 'stemdeck-render-'));
    const file = join(dir, 'manifests.yaml');
    writeFileSync(file, text);
    // KEDA's ScaledObject is checked against the schema of KEDA's own CRD (helm-tools.mjs generates it too).
    const result = kubeconform([file]);
    expect(`${result.stdout}${result.stderr}`).toMatch(/Invalid: 0, Errors: 0, Skipped: 0/);
    expect(result.status).toBe(0);
    const counted = /Summary: (\d+) resources? found/.exec(result.stdout);
    expect(Number(counted?.[1])).toBe(objects.length);
  });

  it('keeps the platform policies: limits, probes, non-root, read-only root, pinned images, no token', () => {
    const { objects } = render(valuesFile);
    const problems: string[] = [];
    for (const workload of workloads(objects)) {
      const pod = podSpec(workload);
      const where = `${workload.kind}/${workload.metadata.name}`;
      if (pod.automountServiceAccountToken !== false) problems.push(`${where}: service account token mounted`);
      if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${where}: pod may run as root`);
      for (const container of pod.containers) {
        const at = `${where} container ${container.name}`;
        if (!container.resources?.limits?.memory || !container.resources?.limits?.cpu) problems.push(`${at}: no cpu and memory limits`);
        if (!container.resources?.requests?.memory || !container.resources?.requests?.cpu) problems.push(`${at}: no cpu and memory requests`);
        if (workload.kind === 'Deployment' && !(container.livenessProbe && container.readinessProbe && container.startupProbe)) problems.push(`${at}: missing a liveness, readiness or startup probe`);
        const security = container.securityContext ?? {};
        if (security.allowPrivilegeEscalation !== false) problems.push(`${at}: privilege escalation allowed`);
        if (security.readOnlyRootFilesystem !== true) problems.push(`${at}: writable root filesystem`);
        if (security.privileged) problems.push(`${at}: privileged`);
        if (!(security.capabilities?.drop ?? []).includes('ALL')) problems.push(`${at}: capabilities not dropped`);
        if (!/(:[\w][\w.-]*|@sha256:[a-f0-9]{64})$/.test(container.image) || /:latest$/.test(container.image)) problems.push(`${at}: image ${container.image} is not pinned`);
        const scratch = (container.volumeMounts ?? []).find((mount: { mountPath: string }) => mount.mountPath === '/tmp');
        if (!scratch || !pod.volumes?.some((volume: { name: string; emptyDir?: unknown }) => volume.name === scratch.name && volume.emptyDir)) problems.push(`${at}: no emptyDir scratch at /tmp`);
      }
      if (workload.kind === 'Deployment' && (pod.topologySpreadConstraints ?? []).length === 0) problems.push(`${where}: no topology spread`);
    }
    for (const account of objects.filter((o) => o.kind === 'ServiceAccount')) {
      if (account.automountServiceAccountToken !== false) problems.push(`ServiceAccount/${account.metadata.name}: token mounted by default`);
    }
    for (const configMap of objects.filter((o) => o.kind === 'ConfigMap')) {
      for (const [key, value] of Object.entries(configMap.data ?? {})) {
        if (/SECRET|PASSWORD|TOKEN|_KEY$|ACCESS_KEY|MONGODB_URI/.test(key)) problems.push(`ConfigMap/${configMap.metadata.name}: ${key} belongs in a Secret`);
        if (/:\/\/[^/\s:@]+:[^/\s@]+@/.test(value)) problems.push(`ConfigMap/${configMap.metadata.name}: ${key} holds credentials in a URL`);
      }
    }
    for (const service of objects.filter((o) => o.kind === 'Service')) {
      if (service.spec.sessionAffinity && service.spec.sessionAffinity !== 'None') problems.push(`Service/${service.metadata.name}: sticky sessions`);
    }
    expect(problems).toEqual([]);
  });

  it('gives every process the variables its config reads (ConfigMap, Secret or a documented value)', () => {
    const { objects } = render(valuesFile);
    const defaults = safeLoadAll(readFileSync(join(CHART, 'values.yaml'), 'utf8'))[0] as Record<string, { env?: Record<string, string> }>;
    // Variables the ConfigMap template maps from named values; left out of the ConfigMap only while empty.
    const mapped = [...readFileSync(join(CHART, 'templates', 'configmap.yaml'), 'utf8').matchAll(/"([A-Z][A-Z0-9_]+)"/g)].map((m) => m[1]);
    const missing: string[] = [];
    for (const name of PROCESSES) {
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `${RELEASE}-stemdeck-${name}`)!;
      const container = podSpec(deployment).containers[0];
      const configMapName = container.envFrom[0].configMapRef.name;
      const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configMapName);
      const provided = new Set([...Object.keys(configMap?.data ?? {}), ...container.env.map((e: { name: string }) => e.name), ...Object.keys(defaults[name]?.env ?? {}), ...(name === 'gateway' ? mapped : [])]);
      for (const variable of variablesRead(name)) if (!provided.has(variable)) missing.push(`${name}: ${variable}`);
      // Tracing reads the service name; it must say which process a span came from.
      expect(configMap?.data?.OTEL_SERVICE_NAME).toBe(`stemdeck-${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('lets only the ingress controller reach the gateway when network policies are on', () => {
    const { objects } = render(valuesFile);
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
    if (policies.length === 0) {
      expect(valuesFile).toMatch(/values-dev\.yaml$/); // only the local development file switches them off
      return;
    }
    for (const name of PROCESSES) {
      const policy = policies.find((p) => p.spec.podSelector.matchLabels['app.kubernetes.io/name'] === name);
      expect(policy?.spec.policyTypes).toEqual(['Ingress', 'Egress']);
      if (name === 'gateway') {
        expect(policy!.spec.ingress).toHaveLength(1);
        expect(policy!.spec.ingress[0].from[0].namespaceSelector.matchLabels['kubernetes.io/metadata.name']).toBeTruthy();
      } else {
        expect(policy!.spec.ingress).toEqual([]);
      }
      const egressPorts = policy!.spec.egress.flatMap((rule: { ports: Array<{ port: number }> }) => rule.ports.map((p) => p.port));
      expect(egressPorts).toEqual(expect.arrayContaining([53, 4222, 27017]));
    }
  });
});

describe('probes of every process', () => {
  const deploymentOf = (objects: K8sObject[], name: string) => objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `${RELEASE}-stemdeck-${name}`)!;

  it('probe each pod over HTTP: /healthz for startup and liveness, /readyz for readiness, on HEALTH_PORT on every interface', () => {
    const { objects } = render(undefined);
    for (const name of PROCESSES.filter((p) => p !== 'gateway')) {
      const container = podSpec(deploymentOf(objects, name)).containers[0];
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 8081 });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 8081 });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 8081 });
      expect(container.ports).toEqual([{ name: 'health', containerPort: 8081, protocol: 'TCP' }]);
      expect(objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === `${RELEASE}-stemdeck-${name}`)?.data).toMatchObject({ HEALTH_PORT: '8081', HEALTH_HOST: '0.0.0.0' });
    }
  });

  it('moves the probes with healthPort', () => {
    const result = helm(['template', RELEASE, CHART, '--set', 'media.healthPort=9464']);
    expect(result.status).toBe(0);
    const objects = safeLoadAll(result.stdout) as K8sObject[];
    const container = podSpec(deploymentOf(objects, 'media')).containers[0];
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 9464 });
    expect(container.ports).toEqual([{ name: 'health', containerPort: 9464, protocol: 'TCP' }]);
    expect(objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === `${RELEASE}-stemdeck-media`)?.data?.HEALTH_PORT).toBe('9464');
  });

  it('keeps a gateway in rotation through an outage every replica shares: readiness reads its own connections only', () => {
    const { objects } = render(undefined);
    const gateway = podSpec(deploymentOf(objects, 'gateway')).containers[0];
    expect(gateway.readinessProbe.httpGet.path).toBe('/readyz/replica');
    expect(gateway.livenessProbe.httpGet.path).toBe('/healthz');
  });
});

describe('values.schema.json', () => {
  const badFiles = readdirSync(FIXTURES).filter((file) => file.startsWith('bad-'));

  it('has bad values to reject', () => expect(badFiles.length).toBeGreaterThanOrEqual(5));

  it.each(readdirSync(FIXTURES).filter((file) => file.startsWith('bad-')))('rejects %s', (file) => {
    const result = helm(['template', RELEASE, CHART, '-f', join(FIXTURES, file)]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/values don't meet the specifications of the schema/);
  });

  it('accepts the documented values files (rendered above) and an empty override', () => {
    const result = helm(['template', RELEASE, CHART, '--set', 'gateway.replicas=3']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('refuses a chart-created Secret without the keys the gateway needs', () => {
    const result = helm(['template', RELEASE, CHART, '--set', 'secret.existingSecret=', '--set', 'secret.create=true', '--set', 'secret.values.MONGODB_URI=mongodb://db/stemdeck']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('secret.values.S3_ACCESS_KEY is required');
  });
});

describe('kubeconform with the generated schemas', () => {
  it('rejects a Deployment with a wrong type and an unknown field (the schemas are really applied)', () => {
    const result = kubeconform([join(FIXTURES, 'broken-deployment.yaml')]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/Invalid: 1/);
    expect(result.stdout).toMatch(/replicas/);
    expect(result.stdout).toMatch(/livenessProbes/);
  });

  it('rejects a ScaledObject with a misspelt field (KEDA CRD schema)', () => {
    const result = kubeconform([join(FIXTURES, 'broken-scaledobject.yaml')]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/Invalid: 1/);
    expect(result.stdout).toMatch(/minReplicas/);
  });
});

describe('skaffold.yaml', () => {
  const skaffoldFile = join(ROOT, 'skaffold.yaml');
  const skaffold = () => safeLoadAll(readFileSync(skaffoldFile, 'utf8'))[0] as any;

  it("is valid against Skaffold's own schema for its apiVersion", () => {
    const location = join(tools.skaffoldSchemaDir, '{{ .ResourceKind }}{{ .KindSuffix }}.json');
    const result = spawnSync(tools.kubeconform, ['-summary', '-schema-location', location, skaffoldFile], { encoding: 'utf8' });
    expect(result.stdout).toMatch(/Valid: 1, Invalid: 0, Errors: 0, Skipped: 0/);
    expect(result.status).toBe(0);
  });

  it("builds one image per process from the Dockerfile's targets and hands each to the chart", () => {
    const config = skaffold();
    const artifacts = config.build.artifacts as Array<{ image: string; docker: { dockerfile: string; target: string } }>;
    expect(artifacts.map((a) => a.docker.target).sort()).toEqual([...PROCESSES].sort());
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    for (const artifact of artifacts) expect(dockerfile).toMatch(new RegExp(`^FROM \\S+ AS ${artifact.docker.target}$`, 'm'));
    const setValues = config.manifests.helm.releases[0].setValueTemplates as Record<string, string>;
    for (const artifact of artifacts) {
      expect(setValues[`${artifact.docker.target}.image`]).toBe(`{{.IMAGE_FULLY_QUALIFIED_${artifact.image.replace(/[^A-Za-z0-9]/g, '_')}}}`);
    }
  });

  it('renders the chart as skaffold dev would (values-dev.yaml, images set per process)', () => {
    const config = skaffold();
    const dev = config.profiles.find((p: { name: string }) => p.name === 'dev');
    const valuesFiles = dev.patches.find((patch: { path: string }) => patch.path.endsWith('/valuesFiles')).value as string[];
    const sets = PROCESSES.flatMap((name) => ['--set', `${name}.image=registry.local/stemdeck-${name}:abc1234@sha256:${'0'.repeat(64)}`]);
    const result = helm(['template', 'stemdeck', join(ROOT, config.manifests.helm.releases[0].chartPath), ...valuesFiles.flatMap((f) => ['-f', join(ROOT, f)]), ...sets]);
    expect(result.stderr).toBe('');
    const images = (safeLoadAll(result.stdout) as K8sObject[]).filter((o) => o.kind === 'Deployment').map((o) => podSpec(o).containers[0].image);
    expect(images.sort()).toEqual(PROCESSES.map((name) => `registry.local/stemdeck-${name}:abc1234@sha256:${'0'.repeat(64)}`).sort());
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stageBase = (stage: string) => new RegExp(`^FROM (\\S+) AS ${stage}$`, 'm').exec(dockerfile)?.[1];

  it('puts ffmpeg only into the images of the processes that decode or encode (media, jobs, export)', () => {
    expect(/^FROM runtime AS runtime-ffmpeg$[\s\S]*?apt-get install -y --no-install-recommends ffmpeg/m.test(dockerfile)).toBe(true);
    expect(stageBase('gateway')).toBe('runtime');
    expect(stageBase('sessions')).toBe('runtime');
    for (const stage of ['media', 'jobs', 'export']) expect(stageBase(stage)).toBe('runtime-ffmpeg');
    // ffmpeg is installed nowhere else
    expect(dockerfile.match(/install[^\n]*ffmpeg/g)).toHaveLength(1);
  });

  it('runs every image as the unprivileged uid the chart expects, with base images pinned by tag and digest', () => {
    const runtimeStage = dockerfile.slice(dockerfile.indexOf('AS runtime\n'), dockerfile.indexOf('AS runtime-ffmpeg'));
    expect(runtimeStage).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile.slice(dockerfile.indexOf('AS runtime-ffmpeg'))).toMatch(/apt-get[\s\S]*^USER 1000:1000$/m);
    const { objects } = render(undefined);
    expect(podSpec(objects.find((o) => o.kind === 'Deployment')!).securityContext.runAsUser).toBe(1000);
    for (const [, image] of dockerfile.matchAll(/^ARG NODE_\w+_IMAGE=(\S+)$/gm)) expect(image).toMatch(/^node:\d+\.\d+\.\d+-[\w-]+@sha256:[a-f0-9]{64}$/);
  });

  it("copies each process's build and starts the entry point the chart runs", () => {
    const { objects } = render(undefined);
    for (const name of PROCESSES) {
      const command: string[] = podSpec(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `${RELEASE}-stemdeck-${name}`)!).containers[0].command;
      const stage = dockerfile.slice(dockerfile.indexOf(` AS ${name}\n`));
      const stageText = stage.slice(0, stage.indexOf('\nFROM ') === -1 ? undefined : stage.indexOf('\nFROM '));
      expect(stageText).toContain(`/app/services/${name}/dist ./services/${name}/dist`);
      expect(stageText).toContain(`CMD ${JSON.stringify(command).replace(/,/g, ', ')}`);
    }
  });
});

/** The variables a process's config.ts reads: its own keys and the platform shapes it spreads in. */
function variablesRead(name: string): string[] {
  const platform = readFileSync(join(ROOT, 'libs', 'platform', 'src', 'config.ts'), 'utf8');
  // A shape's own keys and those of the shapes it spreads in (natsServiceConfigShape holds natsConfigShape).
  const shapeKeys = (shape: string): string[] => {
    const body = new RegExp(`export const ${shape} = \\{([\\s\\S]*?)\\n\\};`).exec(platform)?.[1] ?? '';
    const nested = [...body.matchAll(/\.\.\.(\w+ConfigShape)/g)].flatMap((m) => shapeKeys(m[1]));
    return [...nested, ...[...body.matchAll(/^\s{2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1])];
  };
  const source = readFileSync(join(ROOT, 'services', name, 'src', 'config.ts'), 'utf8');
  const own = [...source.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
  const spread = [...source.matchAll(/\.\.\.(\w+ConfigShape)/g)].flatMap((m) => shapeKeys(m[1]));
  const variables = [...new Set([...own, ...spread, 'OTEL_SERVICE_NAME'])];
  if (spread.length === 0) throw new Error(`no platform config shape found in services/${name}/src/config.ts`);
  return variables;
}
