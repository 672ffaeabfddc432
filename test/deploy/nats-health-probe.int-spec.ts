// The chart's exec probe for the NATS services (deploy/helm/stemdeck/files/nats-health.js), run as the kubelet
// runs it, against the real services of the test stack: each answers its health request, so live and ready pass;
// a service nobody serves fails within the timeout.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const PROBE = join(ROOT, 'deploy', 'helm', 'stemdeck', 'files', 'nats-health.js');
const probe = (service: string, mode: string, timeoutMs = 4000) =>
  spawnSync(process.execPath, [PROBE, service, mode], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PROBE_TIMEOUT_MS: String(timeoutMs) }, timeout: 20_000 });

describe('NATS health probe against the running services', () => {
  beforeAll(() => expect(process.env.NATS_URL).toMatch(/^nats:\/\//));

  it.each(['media', 'jobs', 'sessions', 'export'])('%s is live and ready', (service) => {
    const live = probe(service, 'live');
    expect(live.stderr).toBe('');
    expect(live.status).toBe(0);
    const ready = probe(service, 'ready');
    expect(ready.stderr).toBe('');
    expect(ready.status).toBe(0);
  });

  it('fails for a service that does not answer', () => {
    const started = Date.now();
    const result = probe('nosuchservice', 'live', 1000);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('nosuchservice health request failed');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses an unknown mode', () => {
    expect(probe('media', 'maybe').status).toBe(2);
  });
});
