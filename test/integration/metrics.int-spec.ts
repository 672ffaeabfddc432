import { EXPORT_CONSUMER, EXPORT_STREAM, JOBS_CONSUMER, JOBS_STREAM, SEPARATION_CONSUMER, SEPARATION_STREAM } from '@stemdeck/proto';
import { followJob } from '../support/jobs';
import { listen, makeClip, uploadSeparated } from '../support/media';
import { dashboardMetricNames, missingNames, parseExposition, readDashboard, type Sample } from '../support/prometheus';
import { CSRF } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';

/** Each gateway replica's /metrics (its own port) and each NATS service's probe port, from scripts/test.mjs. */
const gatewayMetrics: string[] = JSON.parse(process.env.STEMDECK_GATEWAY_METRICS ?? '["http://127.0.0.1:19464/metrics","http://127.0.0.1:19465/metrics"]');
const serviceHealth: Record<string, string> = JSON.parse(process.env.STEMDECK_SERVICE_HEALTH ?? '{}');
const SERVICES = ['media', 'jobs', 'sessions', 'export'];

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}
const scrapeGateway = () => scrape(gatewayMetrics[0]);
const scrapeService = (name: string) => scrape(`${serviceHealth[name]}/metrics`);

/** The sum of the samples of `name` whose labels include `labels` (0 when there are none). */
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
const has = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

describe('metrics (/metrics of every process, against the real stack)', () => {
  let demo: SignedInAgent;
  let projectId: string | undefined;

  beforeAll(async () => {
    expect(Object.keys(serviceHealth).sort()).toEqual([...SERVICES].sort());
    demo = await signIn('demo', 'demo');
  });

  it('serves the gateway metrics on their own port only, never on the public one', async () => {
    expect(gatewayMetrics).toHaveLength(2);
    for (const url of gatewayMetrics) expect(total(await scrape(url), 'process_start_time_seconds')).toBeGreaterThan(0);
    const onPublicPort = await demo.fetch('/metrics');
    expect(await onPublicPort.text()).not.toContain('stemdeck_http_requests_total');
  });

  it('counts requests by route template and status class, with their durations, and no ids in any label', async () => {
    const before = await scrapeGateway();
    const list = { method: 'GET', route: '/api/projects', status_class: '2xx' };
    const missing = { method: 'GET', route: '/api/projects/:id', status_class: '4xx' };
    for (let i = 0; i < 3; i += 1) expect((await demo.fetch('/api/projects')).status).toBe(200);
    const notFound = await demo.fetch('/api/projects/no-such-project-4f2a');
    expect(notFound.status).toBe(404);
    await notFound.text();
    // An answer is counted when the server has finished sending it, which may be just after the client saw its status.
    const after = await until(
      scrapeGateway,
      (s) =>
        total(s, 'stemdeck_http_requests_total', list) >= total(before, 'stemdeck_http_requests_total', list) + 3 &&
        total(s, 'stemdeck_http_requests_total', missing) > total(before, 'stemdeck_http_requests_total', missing),
    );
    expect(total(after, 'stemdeck_http_requests_total', list) - total(before, 'stemdeck_http_requests_total', list)).toBeGreaterThanOrEqual(3);
    const answered4xx = after.filter((s) => s.name === 'stemdeck_http_requests_total' && s.labels.status_class === '4xx').map((s) => `${s.labels.method} ${s.labels.route}`);
    expect(answered4xx).toContain('GET /api/projects/:id');
    expect(total(after, 'stemdeck_http_requests_total', missing) - total(before, 'stemdeck_http_requests_total', missing)).toBeGreaterThanOrEqual(1);
    expect(total(after, 'stemdeck_http_request_duration_seconds_count', list)).toBe(total(after, 'stemdeck_http_requests_total', list));
    expect(has(after, 'stemdeck_http_request_duration_seconds_bucket', { ...list, le: '+Inf' })).toBe(true);
    const routes = new Set(after.filter((s) => s.name === 'stemdeck_http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((route) => /no-such-project|[0-9a-f]{24}|[0-9a-f-]{36}/.test(route))).toEqual([]);
  });

  it('follows /ws connections and their messages', async () => {
    const before = await scrapeGateway();
    const live = await listen(demo);
    try {
      await live.waitFor((e) => e.type === 'welcome');
      const open = await until(scrapeGateway, (s) => total(s, 'stemdeck_websocket_connections') >= total(before, 'stemdeck_websocket_connections') + 1);
      expect(total(open, 'stemdeck_websocket_connections')).toBe(total(before, 'stemdeck_websocket_connections') + 1);
      live.send({ type: 'ping', id: 'metrics-1' });
      await live.waitFor((e) => e.type === 'pong' || e.type === 'error');
      const talked = await until(scrapeGateway, (s) => total(s, 'stemdeck_websocket_messages_total', { direction: 'received' }) > total(before, 'stemdeck_websocket_messages_total', { direction: 'received' }));
      expect(total(talked, 'stemdeck_websocket_messages_total', { direction: 'received' })).toBeGreaterThan(total(before, 'stemdeck_websocket_messages_total', { direction: 'received' }));
      expect(total(talked, 'stemdeck_websocket_messages_total', { direction: 'sent' })).toBeGreaterThan(total(before, 'stemdeck_websocket_messages_total', { direction: 'sent' }));
    } finally {
      live.close();
    }
    const closed = await until(scrapeGateway, (s) => total(s, 'stemdeck_websocket_connections') <= total(before, 'stemdeck_websocket_connections'));
    expect(total(closed, 'stemdeck_websocket_connections')).toBe(total(before, 'stemdeck_websocket_connections'));
  });

  it('times a separation by its engine, counts the bytes each process stored, and reports every work queue', async () => {
    const done = { type: 'separation', engine: 'fast', outcome: 'done' };
    const [gatewayBefore, mediaBefore] = [await scrapeGateway(), await scrapeService('media')];
    ({ projectId } = await uploadSeparated(demo, makeClip('metrics-song.wav', 4)));
    const media = await until(() => scrapeService('media'), (s) => total(s, 'stemdeck_job_duration_seconds_count', done) > total(mediaBefore, 'stemdeck_job_duration_seconds_count', done));
    expect(total(media, 'stemdeck_job_duration_seconds_count', done) - total(mediaBefore, 'stemdeck_job_duration_seconds_count', done)).toBeGreaterThanOrEqual(1);
    expect(total(media, 'stemdeck_job_duration_seconds_sum', done)).toBeGreaterThan(total(mediaBefore, 'stemdeck_job_duration_seconds_sum', done));
    const stemBytes = total(media, 'stemdeck_storage_written_bytes_total', { process: 'media', kind: 'stems' }) - total(mediaBefore, 'stemdeck_storage_written_bytes_total', { process: 'media', kind: 'stems' });
    // Four stems of 4 s, 44.1 kHz stereo FLAC: well over 100 kB.
    expect(stemBytes).toBeGreaterThan(100_000);

    const gateway = await scrapeGateway();
    const original = { process: 'gateway', kind: 'original' };
    // The upload's original: a 4 s 16-bit stereo WAV, about 705 kB, counted by the gateway that streamed it.
    expect(total(gateway, 'stemdeck_storage_written_bytes_total', original) - total(gatewayBefore, 'stemdeck_storage_written_bytes_total', original)).toBeGreaterThan(700_000);
    expect(total(gateway, 'stemdeck_http_requests_total', { method: 'POST', route: '/api/upload', status_class: '2xx' })).toBeGreaterThanOrEqual(1);

    for (const [service, stream, consumer] of [
      ['media', SEPARATION_STREAM, SEPARATION_CONSUMER],
      ['jobs', JOBS_STREAM, JOBS_CONSUMER],
      ['export', EXPORT_STREAM, EXPORT_CONSUMER],
    ]) {
      const samples = await scrapeService(service);
      for (const name of ['stemdeck_jetstream_pending_messages', 'stemdeck_jetstream_ack_pending_messages', 'stemdeck_jetstream_redelivered_messages', 'stemdeck_jetstream_redeliveries_total']) {
        expect({ service, name, present: has(samples, name, { stream, consumer }) }).toEqual({ service, name, present: true });
      }
    }
  });

  it('times a mastering job by its provider and counts the master the jobs service stored', async () => {
    expect(projectId).toBeDefined();
    const done = { type: 'mastering', engine: 'local', outcome: 'done' };
    const masters = { process: 'jobs', kind: 'masters' };
    const before = await scrapeService('jobs');
    const created = await demo.fetch('/api/jobs/landr-master', {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId, parameters: { masterType: 'full-mix', style: 'punchy' } }),
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    await followJob<{ progress: number; status: string }>(demo, id, (job) => job.status !== 'processing', 60_000);
    const jobs = await until(() => scrapeService('jobs'), (s) => total(s, 'stemdeck_job_duration_seconds_count', done) > total(before, 'stemdeck_job_duration_seconds_count', done));
    expect(total(jobs, 'stemdeck_job_duration_seconds_count', done) - total(before, 'stemdeck_job_duration_seconds_count', done)).toBe(1);
    expect(total(jobs, 'stemdeck_storage_written_bytes_total', masters)).toBeGreaterThan(total(before, 'stemdeck_storage_written_bytes_total', masters));
  }, 90_000);

  afterAll(async () => {
    if (projectId) await demo.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF });
  });

  it('has every metric name the Grafana dashboard reads in the scraped output, and reports a misspelled one', async () => {
    const urls = [...gatewayMetrics, ...SERVICES.map((name) => `${serviceHealth[name]}/metrics`)];
    const figures: string[] = [];
    const samples: Sample[] = [];
    for (const url of urls) {
      const startedAt = performance.now();
      const text = await (await fetch(url)).text();
      const parsed = parseExposition(text);
      figures.push(`${url}: ${parsed.length} samples, ${(text.length / 1024).toFixed(1)} kB, ${(performance.now() - startedAt).toFixed(1)} ms`);
      samples.push(...parsed);
    }
    console.log(`scrapes:\n${figures.join('\n')}`);
    const dashboard = readDashboard();
    expect(dashboardMetricNames(dashboard).size).toBeGreaterThanOrEqual(12);
    expect(missingNames(dashboard, samples)).toEqual([]);
    const misspelled = JSON.parse(JSON.stringify(dashboard).replaceAll('stemdeck_job_duration_seconds_bucket', 'stemdeck_job_durations_seconds_bucket'));
    expect(missingNames(misspelled, samples)).toEqual(['stemdeck_job_durations_seconds_bucket (Job duration p50 / p95 by type and engine)']);
  });
});
