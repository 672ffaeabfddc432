// `npm test`: installs what is missing, builds, starts the real stack on test ports with fresh data,
// runs every jest project (unit, integration, e2e) against it, stops everything, prints one summary line.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { ensureHelmTools } from './helm-tools.mjs';
import { startOtlpSink } from './otlp-sink.mjs';
import {
  pauseInfraComponent,
  prepare,
  ROOT,
  run,
  serviceHealthPort,
  SERVICES,
  stackProfile,
  startApps,
  startInfra,
  startInfraComponent,
  stopAll,
  stopInfraComponent,
  traceViewerUrl,
} from './stack.mjs';

const stack = stackProfile('test');
const resultsFile = join(stack.dataDir, '..', 'test-results.json');
const spansFile = join(stack.dataDir, '..', 'test-spans.jsonl');
// Every unacknowledged database write any process sent during the run (see mongo-wire-guard.cjs).
const unacknowledgedFile = join(stack.dataDir, '..', 'test-unacknowledged-writes.jsonl');
let sink;
let guard;
let control;
// The test stack runs the `hybrid` engine on the network shipped with the code (as a fresh clone does),
// switches `quality` off (its requests must answer 409, the mixer must say so), and redelivers an
// unacknowledged job fast.
const appExtraEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${stack.ports.otlp}`,
  OTEL_BSP_SCHEDULE_DELAY: '200',
  STEM_MODEL_QUALITY: 'off',
  SEPARATION_ACK_WAIT_MS: '3000',
  JOBS_ACK_WAIT_MS: '3000',
  EXPORT_ACK_WAIT_MS: '3000',
  // Every process reaches the database through the wire guard.
  MONGODB_URI: `mongodb://127.0.0.1:${stack.ports.mongoGuard}/stemdeck`,
  // Timers run in seconds here, so the soak spec goes through many of their cycles.
  SESSION_SWEEP_INTERVAL_SECONDS: '2',
  EXPORT_SWEEP_INTERVAL_MS: '2000',
  // Long enough that a test process busy for a few seconds (ffmpeg fixtures) keeps its sockets.
  LIVE_HEARTBEAT_SECONDS: '10',
};

async function finish(code, summary) {
  control?.close();
  await stopAll();
  sink?.close();
  await guard?.close();
  process.stdout.write(`\n${summary}\n`);
  process.exit(code);
}
process.on('SIGINT', () => void finish(130, 'tests: interrupted'));
process.on('SIGTERM', () => void finish(143, 'tests: interrupted'));

try {
  await prepare();
  // helm, kubeconform and the Kubernetes schemas for the chart's spec, built before the stack takes the cores;
  // a failure here is reported by that spec (test/deploy), not by the whole run.
  try {
    ensureHelmTools();
  } catch (error) {
    process.stderr.write(`[test] chart tools unavailable: ${error.message}\n`);
  }
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  rmSync(spansFile, { force: true });
  rmSync(resultsFile, { force: true });
  rmSync(unacknowledgedFile, { force: true });
  sink = await startOtlpSink(stack.ports.otlp, spansFile);
  await startInfra(stack, { fresh: true });
  // Loaded only now: it reads BSON with the `bson` package, which `prepare()` has just installed on a fresh clone.
  const { startMongoWireGuard } = await import('./mongo-wire-guard.cjs');
  guard = await startMongoWireGuard({ port: stack.ports.mongoGuard, target: { host: '127.0.0.1', port: stack.ports.ferretdb }, recordFile: unacknowledgedFile });
  await startApps(stack, appExtraEnv);
  control = await startStackControl();
} catch (error) {
  process.stderr.write(`[test] could not start the stack: ${error.message}\n`);
  await finish(1, 'tests: 0 passed, 1 failed');
}

/**
 * The fault specs' control port on 127.0.0.1: POST /infra/<name>/stop (SIGKILL, waits for the exit),
 * /start (same command and data folder, waits until it answers), /pause and /resume (SIGSTOP, SIGCONT).
 */
async function startStackControl() {
  const actions = {
    stop: stopInfraComponent,
    start: startInfraComponent,
    pause: (name) => pauseInfraComponent(name, true),
    resume: (name) => pauseInfraComponent(name, false),
  };
  const server = createServer(async (request, response) => {
    const match = /^\/infra\/([a-z0-9-]+)\/(stop|start|pause|resume)$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) return void response.writeHead(404).end();
    try {
      await actions[match[2]](match[1]);
      response.writeHead(204).end();
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(error.message);
    }
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  return server;
}

const testEnv = {
  ...process.env,
  ...stack.appEnv,
  ...appExtraEnv,
  STEMDECK_URL: stack.publicUrl,
  // The second gateway replica (live sessions across replicas).
  STEMDECK_URL_2: stack.publicUrl2,
  STEMDECK_KEYCLOAK_URL: `http://localhost:${stack.ports.keycloak}`,
  STEMDECK_DATA_DIR: stack.dataDir,
  OTLP_SPANS_FILE: spansFile,
  // The trace viewer every process exports to (Zipkin: UI here, API under /api/v2).
  STEMDECK_TRACE_VIEWER_URL: traceViewerUrl(stack),
  MONGO_GUARD_RECORD: unacknowledgedFile,
  // Past the guard, for the spec that proves the guard catches a deliberate unacknowledged write.
  MONGODB_DIRECT_URI: stack.appEnv.MONGODB_URI,
  // Each NATS service's HTTP probe port, by service name.
  // Each gateway replica's /metrics (its own port).
  STEMDECK_GATEWAY_METRICS: JSON.stringify([stack.ports.gatewayMetrics, stack.ports.gateway2Metrics].map((port) => `http://127.0.0.1:${port}/metrics`)),
  STEMDECK_SERVICE_HEALTH: JSON.stringify(Object.fromEntries(SERVICES.map((name) => [name, `http://127.0.0.1:${serviceHealthPort(stack, name)}`]))),
  // Stops and starts the stack's infrastructure processes (the fault specs).
  STEMDECK_STACK_CONTROL: control ? `http://127.0.0.1:${control.address().port}` : '',
  // The stack runs in production mode; the tests themselves do not (React's test helpers need it).
  NODE_ENV: 'test',
};
let jestFailed = false;
try {
  const extra = process.argv.slice(2);
  await run(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--runInBand', '--forceExit', '--json', `--outputFile=${resultsFile}`, ...extra], { env: testEnv });
} catch {
  jestFailed = true;
}
// Whatever the specs did, no process may have sent an unacknowledged write: that counts as one more failure.
const unacknowledged = guard?.findings ?? [];
if (unacknowledged.length) {
  process.stderr.write(`[test] ${unacknowledged.length} unacknowledged database write(s) (${unacknowledgedFile}):\n`);
  for (const finding of unacknowledged.slice(0, 20)) process.stderr.write(`  ${JSON.stringify(finding)}\n`);
}
let summary = 'tests: 0 passed, 1 failed';
try {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const failedSuites = results.numRuntimeErrorTestSuites ?? 0;
  const failed = results.numFailedTests + failedSuites + (unacknowledged.length ? 1 : 0);
  summary = `tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped`;
} catch {}
await finish(jestFailed || unacknowledged.length ? 1 : 0, summary);
