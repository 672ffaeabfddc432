// values-upstream.yaml against the upstream charts' values in deploy/helm/upstream: every host, port, label and
// Secret the Stemdeck values name must be what those charts make for the release names the README documents.
// The naming rules below are the charts' own (read from their sources, commits in the README's table):
//   nats/nats, minio/minio, open-telemetry/opentelemetry-collector: a release whose name contains the chart's name
//   keeps it, otherwise "<release>-<chart>"; nats adds "-headless" for its headless Service (monitor port there);
//   codecentric/keycloakx: "<fullname>-http" on port 80, everything under http.relativePath;
//   the MongoDB community operator: pods "<name>-N" under the headless Service "<name>-svc", replica set "<name>",
//   pods selected by app=<name>-svc.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// js-yaml comes with jest (its coverage loader); only its safeLoad is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { safeLoad } = require('js-yaml') as { safeLoad: (text: string) => any };

const ROOT = resolve(__dirname, '..', '..');
const HELM = join(ROOT, 'deploy', 'helm');
const read = (path: string) => readFileSync(join(HELM, path), 'utf8');
const load = (path: string) => safeLoad(read(path));

const stemdeck = load('values-upstream.yaml');
const nats = load('upstream/nats.yaml');
const minio = load('upstream/minio.yaml');
const keycloak = load('upstream/keycloakx.yaml');
const otel = load('upstream/otel-collector.yaml');
const mongodb = load('upstream/mongodb.yaml');

/** The fullname rule of the nats, minio and opentelemetry-collector charts. */
const fullname = (release: string, chart: string, override?: string) => override || (release.includes(chart) ? release : `${release}-${chart}`);
const egress = (name: string) => stemdeck.networkPolicy.egress[name];
const selects = (name: string) => egress(name).to.map((peer: any) => peer.podSelector.matchLabels);

describe('values-upstream.yaml points at the upstream releases', () => {
  it('NATS: the client Service, the headless Service with the monitor port for KEDA, and the pod label', () => {
    const service = fullname('nats', 'nats');
    expect(stemdeck.config.natsUrl).toBe(`nats://${service}:4222`);
    expect(nats.config.monitor.enabled).toBe(true);
    expect(stemdeck.media.keda.natsMonitoringEndpoint).toBe(`${service}-headless:8222`);
    expect(nats.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    expect(nats.config.jetstream.enabled).toBe(true);
    expect(nats.config.jetstream.fileStore.pvc.size).toMatch(/^\d+Gi$/);
    expect(selects('nats')).toEqual([{ 'app.kubernetes.io/name': 'nats' }]);
    expect(egress('nats').ports).toEqual([4222]);
  });

  it('MinIO: the S3 Service, the bucket, the root Secret, and no default console user', () => {
    expect(stemdeck.config.s3Endpoint).toBe(`http://${fullname('minio', 'minio')}:9000`);
    expect(minio.buckets.map((bucket: { name: string }) => bucket.name)).toContain(stemdeck.config.s3Bucket);
    expect(minio.existingSecret).toBe('minio-root');
    // The chart's default list creates "console" / "console123" with consoleAdmin.
    expect(minio.users).toEqual([]);
    expect(selects('objectStorage')).toEqual([{ app: 'minio' }]);
  });

  it('Keycloak: the admin API the realm Job calls and the issuer live under the chart\'s relative path', () => {
    const base = keycloak.http.relativePath;
    expect(stemdeck.keycloakRealmImport.serverUrl).toBe(`http://${keycloak.fullnameOverride}-http:80${base}`);
    const issuer = new URL(stemdeck.gateway.oidcIssuerUrl);
    expect(issuer.pathname).toBe(`${base}/realms/stemdeck`);
    expect(keycloak.ingress.rules.map((rule: { host: string }) => rule.host)).toContain(issuer.host);
    expect(keycloak.ingress.rules[0].paths[0].path).toBe(base);
    // The bootstrap admin the server creates is the account the realm Job signs in with.
    const env = safeLoad(keycloak.extraEnv) as Array<{ name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>;
    const admin = (name: string) => env.find((variable) => variable.name === name)?.valueFrom?.secretKeyRef;
    expect(admin('KC_BOOTSTRAP_ADMIN_USERNAME')).toEqual({ name: stemdeck.keycloakRealmImport.adminSecret, key: 'KEYCLOAK_ADMIN_USER' });
    expect(admin('KC_BOOTSTRAP_ADMIN_PASSWORD')).toEqual({ name: stemdeck.keycloakRealmImport.adminSecret, key: 'KEYCLOAK_ADMIN_PASSWORD' });
  });

  it('OpenTelemetry Collector: the OTLP/HTTP Service, a required image and mode, and the pod label', () => {
    expect(stemdeck.config.otelExporterOtlpEndpoint).toBe(`http://${fullname('otel', 'opentelemetry-collector')}:4318`);
    expect(['deployment', 'daemonset', 'statefulset']).toContain(otel.mode);
    expect(otel.image.repository).toMatch(/\S/);
    expect(otel.ports['otlp-http'].enabled).toBe(true);
    expect(otel.config.service.pipelines.traces.receivers).toContain('otlp');
    expect(selects('telemetry')).toEqual([{ 'app.kubernetes.io/name': 'opentelemetry-collector' }]);
  });

  it('MongoDB: the URI documented for the Secret names the operator\'s pods, Service, replica set and user database', () => {
    const name = mongodb.metadata.name as string;
    const user = mongodb.spec.users[0];
    const hosts = Array.from({ length: mongodb.spec.members }, (_, i) => `${name}-${i}.${name}-svc`).join(',');
    const uri = `mongodb://${user.name}:<password>@${hosts}/${user.db}?replicaSet=${name}&authSource=${user.db}`;
    expect(read('upstream/mongodb.yaml')).toContain(uri);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(uri);
    expect(selects('database')).toEqual([{ app: `${name}-svc` }]);
  });
});

describe('README table of upstream charts', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('Upstream charts for `values-upstream.yaml`'), readme.indexOf('From an empty cluster to a signed-in user:'));
  const rows = table
    .split('\n')
    .filter((line) => /^\| `[a-z-]+`/.test(line))
    .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '').trim()));

  it('lists every release', () => {
    expect(rows.map((row) => row[0].replace(/`/g, '').split(' ')[0])).toEqual(['nats', 'minio', 'keycloak', 'otel', 'community-operator', 'keda']);
  });

  it.each(['nats', 'minio', 'keycloak', 'otel', 'community-operator'])('names the version the install line of %s\'s values file installs', (release) => {
    const row = rows.find((cells) => cells[0].startsWith(`\`${release}\``))!;
    const [, chart, version] = row;
    const file = /(deploy\/helm\/upstream\/[a-z-]+\.yaml)/.exec(row[row.length - 1])![1];
    const install = `helm install ${release} ${/`([^`]+)`/.exec(chart)![1]} --version ${version} -n stemdeck`;
    expect(readFileSync(join(ROOT, file), 'utf8')).toContain(install);
  });
});
