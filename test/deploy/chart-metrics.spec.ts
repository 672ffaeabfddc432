// The chart's metrics wiring: scrape annotations and ports on every pod, the gateway's metrics port in its
// ConfigMap, and the NetworkPolicies letting the named Prometheus namespace reach each pod's metrics port (and
// nothing else). Rendered with the helm and schemas scripts/helm-tools.mjs provides, validated by kubeconform.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { safeLoadAll } = require('js-yaml') as { safeLoadAll: (text: string) => unknown[] };

const ROOT = resolve(__dirname, '..', '..');
const CHART = join(ROOT, 'deploy', 'helm', 'stemdeck');
const PROCESSES = ['gateway', 'media', 'jobs', 'sessions', 'export'];
type Tools = { helm: string; kubeconform: string; schemaDir: string; kubernetesVersion: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type K8sObject = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };

let tools: Tools;
beforeAll(() => {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'helm-tools.mjs')], { encoding: 'utf8', timeout: 25 * 60 * 1000 });
  if (result.status !== 0) throw new Error(`scripts/helm-tools.mjs could not provide helm and kubeconform:\n${result.stderr}`);
  tools = JSON.parse(result.stdout) as Tools;
}, 26 * 60 * 1000);

function render(set: string[] = []): { text: string; objects: K8sObject[] } {
  const helmHome = mkdtempSync(join(tmpdir(), 'stemdeck-helm-'));
  const env = { ...process.env, HELM_CACHE_HOME: join(helmHome, 'cache'), HELM_CONFIG_HOME: join(helmHome, 'config'), HELM_DATA_HOME: join(helmHome, 'data') };
  const args = ['template', 'studio', CHART, '--namespace', 'stemdeck', '--kube-version', tools.kubernetesVersion, ...set.flatMap((s) => ['--set', s])];
  const result = spawnSync(tools.helm, args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return { text: result.stdout, objects: safeLoadAll(result.stdout).filter((doc): doc is K8sObject => !!doc && typeof doc === 'object') };
}
const of = (objects: K8sObject[], kind: string, process: string) => objects.find((o) => o.kind === kind && o.metadata.name === `studio-stemdeck-${process}`)!;

describe('chart: Prometheus metrics', () => {
  it('annotates every pod for scraping at its metrics port and gives the gateway a metrics port of its own', () => {
    const { objects } = render();
    for (const process of PROCESSES) {
      const deployment = of(objects, 'Deployment', process);
      const container = deployment.spec.template.spec.containers[0];
      const port = process === 'gateway' ? 9464 : 8081;
      expect(deployment.spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
      expect(container.ports).toContainEqual({ name: process === 'gateway' ? 'metrics' : 'health', containerPort: port, protocol: 'TCP' });
    }
    expect(of(objects, 'ConfigMap', 'gateway').data).toMatchObject({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', PORT: '8080' });
    const annotated = render(['metrics.scrapeAnnotations=false']).objects;
    expect(Object.keys(of(annotated, 'Deployment', 'media').spec.template.metadata.annotations)).toEqual(['checksum/config']);
  });

  it('lets only the named Prometheus namespace reach the metrics ports through the network policies, and validates', () => {
    const { text, objects } = render(['networkPolicy.metricsScraperNamespace=monitoring']);
    for (const process of PROCESSES) {
      const ingress = of(objects, 'NetworkPolicy', process).spec.ingress;
      const scrape = { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ port: process === 'gateway' ? 'metrics' : 'health', protocol: 'TCP' }] };
      expect(ingress).toContainEqual(scrape);
      expect(ingress).toHaveLength(process === 'gateway' ? 2 : 1);
    }
    const dir = mkdtempSync(join(tmpdir(), 'stemdeck-render-'));
    writeFileSync(join(dir, 'manifests.yaml'), text);
    const location = join(tools.schemaDir, '..', '{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}', '{{ .ResourceKind }}{{ .KindSuffix }}.json');
    const result = spawnSync(tools.kubeconform, ['-strict', '-summary', '-kubernetes-version', tools.kubernetesVersion.replace(/^v/, ''), '-schema-location', location, join(dir, 'manifests.yaml')], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toMatch(/Invalid: 0, Errors: 0, Skipped: 0/);
    // Without a namespace the NATS services still take no connections at all.
    expect(of(render().objects, 'NetworkPolicy', 'media').spec.ingress).toEqual([]);
  });
});
