// Starts and stops the studio's real processes on 127.0.0.1: NATS (JetStream), FerretDB (SQLite),
// MinIO, Keycloak, the four NATS services and two gateway replicas. Used by `npm start` and `npm test`.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, '.tools');
export const SERVICES = ['media', 'jobs', 'sessions', 'export'];

const envPort = (name, fallback) => Number(process.env[name] ?? fallback);

/** Ports, folders and credentials of one stack. `test` is offset so it can run beside `npm start`. */
export function stackProfile(profile) {
  const offset = profile === 'test' ? 10000 : 0;
  const ports = {
    gateway: envPort('PORT', 8080 + offset),
    // A second gateway replica on the same NATS, database and session store: live sessions fan out
    // across replicas over NATS, and the tests prove two users on different replicas meet.
    gateway2: envPort('GATEWAY_2_PORT', 8081 + offset),
    nats: envPort('NATS_PORT', 4222 + offset),
    natsMonitor: envPort('NATS_MONITOR_PORT', 8222 + offset),
    ferretdb: envPort('FERRETDB_PORT', 27017 + offset),
    ferretdbDebug: envPort('FERRETDB_DEBUG_PORT', 8088 + offset),
    // The test stack's wire guard in front of FerretDB (scripts/mongo-wire-guard.cjs); unused by npm start.
    mongoGuard: envPort('MONGO_GUARD_PORT', 27018 + offset),
    minio: envPort('MINIO_PORT', 9000 + offset),
    minioConsole: envPort('MINIO_CONSOLE_PORT', 9001 + offset),
    keycloak: envPort('KEYCLOAK_PORT', 8180 + offset),
    keycloakManagement: envPort('KEYCLOAK_MANAGEMENT_PORT', 9180 + offset),
    otlp: envPort('OTLP_SINK_PORT', 4318 + offset),
    // Each NATS service's HTTP probe port (/healthz, /readyz): this base + 1 + its place in SERVICES.
    serviceHealthBase: envPort('SERVICE_HEALTH_PORT_BASE', 8290 + offset),
    // Each gateway replica's Prometheus /metrics (its own port: the studio's is public).
    gatewayMetrics: envPort('GATEWAY_METRICS_PORT', 9464 + offset),
    gateway2Metrics: envPort('GATEWAY_2_METRICS_PORT', 9465 + offset),
    // The trace viewer (Zipkin): its UI and API, and where every process sends its spans.
    zipkin: envPort('ZIPKIN_PORT', 9411 + offset),
  };
  const dataDir = join(ROOT, '.data', profile);
  const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${ports.gateway}`;
  const publicUrl2 = process.env.PUBLIC_URL_2 ?? `http://localhost:${ports.gateway2}`;
  const s3 = { accessKey: 'stemdeck', secretKey: 'stemdeck-dev-secret', bucket: 'stemdeck' };
  const appEnv = {
    NODE_ENV: 'production',
    NATS_URL: `nats://127.0.0.1:${ports.nats}`,
    MONGODB_URI: `mongodb://127.0.0.1:${ports.ferretdb}/stemdeck`,
    S3_ENDPOINT: `http://127.0.0.1:${ports.minio}`,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: s3.bucket,
    PORT: String(ports.gateway),
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER_URL: `http://localhost:${ports.keycloak}/realms/stemdeck`,
    OIDC_CLIENT_ID: 'stemdeck-gateway',
    OIDC_CLIENT_SECRET: 'stemdeck-gateway-dev-secret',
    SESSION_SECRET: `stemdeck-${profile}-session-secret-change-me-in-production`,
    FRONTEND_DIR: join(ROOT, 'frontend', 'dist'),
    MEDIA_WORK_DIR: join(dataDir, 'media-work'),
    // Every process sends its spans to the stack's trace viewer (empty: not sent there).
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: process.env.OTEL_EXPORTER_ZIPKIN_ENDPOINT ?? `http://127.0.0.1:${ports.zipkin}/api/v2/spans`,
  };
  return { profile, ports, dataDir, publicUrl, publicUrl2, appEnv, s3 };
}

const children = [];
let stopping = false;

function log(message) {
  process.stderr.write(`[stack] ${message}\n`);
}

function launch(name, command, args, { cwd = ROOT, env = {}, logDir }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const entry = { name, child, logFile, exited: null };
  child.on('exit', (code, signal) => (entry.exited = { code, signal }));
  children.push(entry);
  // Tests find a service's process here (e.g. to kill it mid-job and watch the work survive).
  const pidDir = join(logDir, '..', 'pids');
  mkdirSync(pidDir, { recursive: true });
  writeFileSync(join(pidDir, `${name}.pid`), String(child.pid));
  return entry;
}

/** Restarts a NATS service that dies on its own, as Kubernetes would restart its pod. */
function supervise(entry, relaunch) {
  entry.child.on('exit', (code, signal) => {
    if (stopping) return;
    log(`${entry.name} exited (${code ?? signal}); restarting`);
    setTimeout(() => !stopping && supervise(relaunch(), relaunch), 500);
  });
}

function tail(file, lines = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it resolves true; fails early, with the log tail, if the process exits. */
async function waitFor(entry, what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (entry.exited) throw new Error(`${entry.name} exited (${JSON.stringify(entry.exited)}) before ${what}:\n${tail(entry.logFile)}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${entry.name}: ${what} not reached within ${timeoutMs} ms:\n${tail(entry.logFile)}`);
    await sleep(250);
  }
}

const httpOk = (url) => async () => (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
const tcpOpen = (port) => () =>
  new Promise((resolveOpen) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolveOpen(true);
    });
    socket.on('error', () => resolveOpen(false));
  });

async function assertPortFree(name, port) {
  if (await tcpOpen(port)()) throw new Error(`port ${port} for ${name} is already in use (another stack running? set ${name.toUpperCase()}_PORT)`);
}

/** Realm file for this stack: the committed realm plus both replicas' public URLs as redirect targets. */
function writeRealm(stack, keycloakHome) {
  const realm = JSON.parse(readFileSync(join(ROOT, 'deploy/keycloak/stemdeck-realm.json'), 'utf8'));
  const client = realm.clients.find((c) => c.clientId === 'stemdeck-gateway');
  const logoutUris = client.attributes['post.logout.redirect.uris'].split('##');
  for (const publicUrl of [stack.publicUrl, stack.publicUrl2]) {
    const callback = `${publicUrl}/api/callback`;
    if (!client.redirectUris.includes(callback)) client.redirectUris.push(callback);
    if (!logoutUris.includes(`${publicUrl}/*`)) logoutUris.push(`${publicUrl}/*`);
  }
  client.attributes['post.logout.redirect.uris'] = logoutUris.join('##');
  const importDir = join(keycloakHome, 'data', 'import');
  mkdirSync(importDir, { recursive: true });
  writeFileSync(join(importDir, 'stemdeck-realm.json'), JSON.stringify(realm, null, 2));
}

/** The trace viewer's address (Zipkin's UI; its API is under /api/v2). */
export const traceViewerUrl = (stack) => `http://127.0.0.1:${stack.ports.zipkin}/zipkin/`;

/**
 * Zipkin's server with in-memory storage: the oldest traces give way past ZIPKIN_MAX_SPANS. The heap is
 * capped because Keycloak already runs a JVM beside it: filled with 50 000 spans like ours (a dozen tags
 * each) it held 138 MB live of its 256 MB (process RSS 420 MB); 100 000 filled it. It starts in about 5 s,
 * alongside Keycloak.
 */
function startTraceViewer(stack, logDir) {
  const port = String(stack.ports.zipkin);
  return launch(
    'zipkin',
    'java',
    [
      '-Xms32m',
      `-Xmx${process.env.ZIPKIN_HEAP ?? '256m'}`,
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-jar',
      join(TOOLS, 'zipkin.jar'),
      // One listener, on the loopback address only (the list replaces Zipkin's default 0.0.0.0:9411).
      '--armeria.ports[0].ip=127.0.0.1',
      `--armeria.ports[0].port=${port}`,
      '--armeria.ports[0].protocols[0]=http',
    ],
    { logDir, env: { STORAGE_TYPE: 'mem', MEM_MAX_SPANS: process.env.ZIPKIN_MAX_SPANS ?? '50000', QUERY_PORT: port, SELF_TRACING_ENABLED: 'false' } },
  );
}

/** Starts the infrastructure servers and waits until each answers. */
export async function startInfra(stack, { fresh = false } = {}) {
  const { ports, dataDir } = stack;
  if (fresh) rmSync(dataDir, { recursive: true, force: true });
  const logDir = join(dataDir, 'logs');
  for (const [name, port] of Object.entries({ nats: ports.nats, ferretdb: ports.ferretdb, minio: ports.minio, keycloak: ports.keycloak, zipkin: ports.zipkin })) {
    await assertPortFree(name, port);
  }

  const natsDir = join(dataDir, 'nats');
  mkdirSync(natsDir, { recursive: true });
  const natsConf = join(natsDir, 'nats.conf');
  writeFileSync(
    natsConf,
    `listen: 127.0.0.1:${ports.nats}\nhttp: 127.0.0.1:${ports.natsMonitor}\nmax_payload: 1MB\njetstream {\n  store_dir: "${join(natsDir, 'jetstream')}"\n}\n`,
  );
  const nats = infraComponent('nats', () => launch('nats', 'nats-server', ['-c', natsConf], { logDir }), (entry) =>
    waitFor(entry, 'JetStream ready', httpOk(`http://127.0.0.1:${ports.natsMonitor}/healthz?js-enabled-only=true`), 30_000),
  );

  const ferretDir = join(dataDir, 'ferretdb');
  mkdirSync(ferretDir, { recursive: true });
  const ferretdb = infraComponent('ferretdb', () => launch(
    'ferretdb',
    join(TOOLS, 'bin', 'ferretdb'),
    [
      '--handler=sqlite',
      `--sqlite-url=file:${ferretDir}/`,
      `--state-dir=${ferretDir}`,
      `--listen-addr=127.0.0.1:${ports.ferretdb}`,
      `--debug-addr=127.0.0.1:${ports.ferretdbDebug}`,
      '--telemetry=disable',
      '--log-level=warn',
    ],
    { logDir },
  ), (entry) => waitFor(entry, 'accepting connections', tcpOpen(ports.ferretdb), 30_000));

  const minioDir = join(dataDir, 'minio');
  mkdirSync(minioDir, { recursive: true });
  const minio = infraComponent('minio', () => launch(
    'minio',
    join(TOOLS, 'bin', 'minio'),
    ['server', '--quiet', '--address', `127.0.0.1:${ports.minio}`, '--console-address', `127.0.0.1:${ports.minioConsole}`, minioDir],
    {
      logDir,
      env: { MINIO_ROOT_USER: stack.s3.accessKey, MINIO_ROOT_PASSWORD: stack.s3.secretKey, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
    },
  ), (entry) => waitFor(entry, 'ready', httpOk(`http://127.0.0.1:${ports.minio}/minio/health/ready`), 60_000));

  const zipkin = infraComponent('zipkin', () => startTraceViewer(stack, logDir), (entry) =>
    waitFor(entry, 'trace viewer ready', httpOk(`http://127.0.0.1:${ports.zipkin}/health`), 120_000),
  );

  const keycloakHome = join(TOOLS, 'keycloak');
  writeRealm(stack, keycloakHome);
  const keycloak = infraComponent('keycloak', () => launch(
    'keycloak',
    join(keycloakHome, 'bin', 'kc.sh'),
    [
      'start-dev',
      '--db=dev-mem',
      '--import-realm',
      `--hostname=http://localhost:${ports.keycloak}`,
      '--http-host=127.0.0.1',
      `--http-port=${ports.keycloak}`,
      `--http-management-port=${ports.keycloakManagement}`,
      '--health-enabled=true',
    ],
    { logDir, env: { JAVA_OPTS_KC_HEAP: '-XX:MaxRAMPercentage=10 -XX:InitialRAMPercentage=2' } },
  ), (entry) => waitFor(entry, 'realm served', httpOk(`http://127.0.0.1:${ports.keycloak}/realms/stemdeck/.well-known/openid-configuration`), 240_000));

  await Promise.all([nats, ferretdb, minio, zipkin, keycloak].map((component) => component.ready(component.entry)));
  log(`infrastructure ready (logs in ${logDir})`);
}

/**
 * The infrastructure processes by name, each with its own launch (same arguments and data folder every
 * time) and readiness probe, so the fault specs can stop one and start it again (`npm test`'s control port).
 */
const infraComponents = new Map();

function infraComponent(name, relaunch, ready) {
  const component = { entry: relaunch(), relaunch, ready };
  infraComponents.set(name, component);
  return component;
}

function knownInfra(name) {
  const component = infraComponents.get(name);
  if (!component) throw new Error(`no infrastructure component named ${name} (known: ${[...infraComponents.keys()].join(', ')})`);
  return component;
}

/** Stops one infrastructure process (SIGKILL: a crash, not a shutdown) and waits until it has exited. */
export async function stopInfraComponent(name) {
  const { entry } = knownInfra(name);
  if (entry.exited) return;
  try {
    process.kill(-entry.child.pid, 'SIGKILL');
  } catch {}
  const deadline = Date.now() + 10_000;
  while (!entry.exited && Date.now() < deadline) await sleep(50);
  if (!entry.exited) throw new Error(`${name} did not exit after SIGKILL`);
}

/** Starts a stopped infrastructure process again, as it was first started, and waits until it answers. */
export async function startInfraComponent(name) {
  const component = knownInfra(name);
  if (!component.entry.exited) return;
  component.entry = component.relaunch();
  await component.ready(component.entry);
  log(`${name} restarted`);
}

/** Freezes (SIGSTOP) or thaws (SIGCONT) one infrastructure process: it keeps its sockets but answers nothing. */
export function pauseInfraComponent(name, paused) {
  const { entry } = knownInfra(name);
  process.kill(-entry.child.pid, paused ? 'SIGSTOP' : 'SIGCONT');
}

/**
 * The gateway streams uploads and proxies audio: a small young generation keeps its footprint low
 * (idle ~115 MB instead of ~150 MB) at the price of more, cheaper scavenges, and a 128 MB old generation
 * (its live heap is ~40 MB) makes V8 collect before idle garbage piles up: over five 500 MB uploads the
 * peak stayed at 140–149 MB, where without it one run read 158 MB. Same flags in the Helm chart.
 */
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=128'];

/**
 * Media streams audio through many short-lived buffers of a few MB. glibc raises its mmap threshold after
 * freeing such a buffer, so later ones come from heaps it rarely gives back, and per-thread arenas (the
 * separation's worker threads) multiply that: after a long job the process kept 400–490 MB of an idle
 * 130 MB. A fixed 128 kB threshold and two arenas bring it back to ~180 MB within 30 s (bench:long-media).
 * Same values in the Helm chart.
 */
const SERVICE_ENV = { media: { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' } };

/** The HTTP probe port of a NATS service in this stack. */
export const serviceHealthPort = (stack, name) => stack.ports.serviceHealthBase + 1 + SERVICES.indexOf(name);

/** Origins a replica accepts for mutations and /ws: whatever the environment allows, plus `others`. */
const withOrigins = (allowed, others) => [...new Set([...(allowed ?? '').split(',').map((o) => o.trim()).filter(Boolean), ...others.map((url) => new URL(url).origin)])].join(',');

/**
 * Starts the services and two gateway replicas (built output) and waits until both report ready. The
 * replicas share NATS, the database and the session store, each redirects sign-in back to itself, and
 * each accepts the other's origin. The first keeps the name, port and log it always had.
 */
export async function startApps(stack, extraEnv = {}) {
  const logDir = join(stack.dataDir, 'logs');
  await assertPortFree('gateway', stack.ports.gateway);
  await assertPortFree('gateway_2', stack.ports.gateway2);
  for (const name of [...SERVICES, 'gateway']) {
    const main = join(ROOT, 'services', name, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing; run npm run build`);
  }
  const env = { ...stack.appEnv, ...extraEnv };
  for (const name of SERVICES) {
    const serviceEnv = { ...env, ...(SERVICE_ENV[name] ?? {}), HEALTH_PORT: String(serviceHealthPort(stack, name)) };
    const start = () => launch(name, process.execPath, [join(ROOT, 'services', name, 'dist', 'main.js')], { logDir, env: serviceEnv });
    supervise(start(), start);
  }
  const replicas = [
    { name: 'gateway', port: stack.ports.gateway, env: { ...env, METRICS_PORT: String(stack.ports.gatewayMetrics), ALLOWED_ORIGINS: withOrigins(env.ALLOWED_ORIGINS, [stack.publicUrl2]) } },
    {
      name: 'gateway-2',
      port: stack.ports.gateway2,
      env: { ...env, PORT: String(stack.ports.gateway2), METRICS_PORT: String(stack.ports.gateway2Metrics), PUBLIC_URL: stack.publicUrl2, ALLOWED_ORIGINS: withOrigins(env.ALLOWED_ORIGINS, [stack.publicUrl]) },
    },
  ];
  await Promise.all(
    replicas.map(async (replica) => {
      const gateway = launch(replica.name, process.execPath, [...GATEWAY_NODE_FLAGS, join(ROOT, 'services', 'gateway', 'dist', 'main.js')], { logDir, env: replica.env });
      const readyz = `http://127.0.0.1:${replica.port}/readyz`;
      await waitFor(gateway, 'ready (/readyz 200)', httpOk(readyz), 90_000).catch(async (error) => {
        const lastAnswer = await fetch(readyz, { signal: AbortSignal.timeout(5000) })
          .then((response) => response.text())
          .catch((fetchError) => `(no answer: ${fetchError.message})`);
        throw new Error(`${error.message}\n--- last /readyz answer: ${lastAnswer}\n--- service logs in ${logDir}`);
      });
    }),
  );
  log(`studio ready at ${stack.publicUrl} and ${stack.publicUrl2}`);
}

/** Stops every process this module started: SIGTERM, then SIGKILL after a grace period. */
export async function stopAll(graceMs = 8000) {
  stopping = true;
  const running = children.filter((c) => !c.exited);
  for (const entry of running.reverse()) {
    try {
      process.kill(-entry.child.pid, 'SIGTERM');
    } catch {}
  }
  const deadline = Date.now() + graceMs;
  while (children.some((c) => !c.exited) && Date.now() < deadline) await sleep(100);
  for (const entry of children.filter((c) => !c.exited)) {
    try {
      process.kill(-entry.child.pid, 'SIGKILL');
    } catch {}
  }
}

/** Runs a command to completion with inherited output; rejects on a non-zero exit. */
export function run(command, args, options = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => (code === 0 ? resolveRun() : reject(new Error(`${command} ${args.join(' ')} failed (${code ?? signal})`))));
  });
}

/** Installs npm dependencies when missing or older than the lockfile, then the servers, then builds. */
export async function prepare({ build = true } = {}) {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
  if (stale) {
    // `npm install` with the committed lockfile, not `npm ci`: the registry mirror here lacks other
    // platforms' optional binaries (e.g. @swc/core-darwin-*), which `npm ci`'s lock check demands.
    log('installing npm dependencies (npm install, locked versions)');
    await run('npm', ['install', '--no-audit', '--no-fund']);
  }
  log('provisioning servers');
  await run('bash', [join(ROOT, 'scripts', 'provision.sh')]);
  if (build) {
    log('building');
    await run('npm', ['run', 'build', '--silent']);
  }
}
