// `npm test`: installs what is missing, builds, starts the real stack on test ports with fresh data,
// runs every jest project (unit, integration, e2e) against it, stops everything, prints one summary line.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startOtlpSink } from './otlp-sink.mjs';
import { prepare, ROOT, run, stackProfile, startApps, startInfra, stopAll } from './stack.mjs';

const stack = stackProfile('test');
const resultsFile = join(stack.dataDir, '..', 'test-results.json');
const spansFile = join(stack.dataDir, '..', 'test-spans.jsonl');
let sink;
// The test stack runs the `hybrid` engine on a model the project generates (no weights can be downloaded),
// leaves `quality` unconfigured (its requests must answer 409), and redelivers an unacknowledged job fast.
const testModel = join(stack.dataDir, '..', 'models', 'test-hybrid.onnx');
const appExtraEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${stack.ports.otlp}`,
  OTEL_BSP_SCHEDULE_DELAY: '200',
  STEM_MODEL_HYBRID: testModel,
  SEPARATION_ACK_WAIT_MS: '3000',
};

async function finish(code, summary) {
  await stopAll();
  sink?.close();
  process.stdout.write(`\n${summary}\n`);
  process.exit(code);
}
process.on('SIGINT', () => void finish(130, 'tests: interrupted'));
process.on('SIGTERM', () => void finish(143, 'tests: interrupted'));

try {
  await prepare();
  mkdirSync(join(ROOT, '.data'), { recursive: true });
  rmSync(spansFile, { force: true });
  rmSync(resultsFile, { force: true });
  sink = await startOtlpSink(stack.ports.otlp, spansFile);
  await startInfra(stack, { fresh: true });
  mkdirSync(join(stack.dataDir, '..', 'models'), { recursive: true });
  await run(process.execPath, [join(ROOT, 'scripts', 'make-test-model.mjs'), testModel]);
  await startApps(stack, appExtraEnv);
} catch (error) {
  process.stderr.write(`[test] could not start the stack: ${error.message}\n`);
  await finish(1, 'tests: 0 passed, 1 failed');
}

const testEnv = {
  ...process.env,
  ...stack.appEnv,
  ...appExtraEnv,
  STEMDECK_URL: stack.publicUrl,
  STEMDECK_KEYCLOAK_URL: `http://localhost:${stack.ports.keycloak}`,
  STEMDECK_DATA_DIR: stack.dataDir,
  OTLP_SPANS_FILE: spansFile,
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
let summary = 'tests: 0 passed, 1 failed';
try {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const failedSuites = results.numRuntimeErrorTestSuites ?? 0;
  summary = `tests: ${results.numPassedTests} passed, ${results.numFailedTests + failedSuites} failed, ${results.numPendingTests} skipped`;
} catch {}
await finish(jestFailed ? 1 : 0, summary);
