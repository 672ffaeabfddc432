// `npm start`: installs what is missing, builds, and runs the whole studio at http://localhost:8080 (and a
// second gateway replica at http://localhost:8081, the same studio: live sessions meet across the two).
import { prepare, startApps, startInfra, stackProfile, stopAll, traceViewerUrl } from './stack.mjs';

const stack = stackProfile('dev');
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  process.stderr.write('\n[stack] stopping...\n');
  await stopAll();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await prepare();
  await startInfra(stack);
  await startApps(stack);
  process.stdout.write(`\n  Stemdeck is running at ${stack.publicUrl} (second replica: ${stack.publicUrl2})\n  Sign in as demo / demo. Logs: ${stack.dataDir}/logs. Ctrl-C stops everything.\n  Traces: ${traceViewerUrl(stack)}\n  OSC out to VJ software: run \`npm run osc-bridge\` in another terminal.\n\n`);
} catch (error) {
  process.stderr.write(`[stack] ${error.message}\n`);
  await shutdown(1);
}
