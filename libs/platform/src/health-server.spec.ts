import { HealthServer, startHealthServer } from './health-server';

describe('startHealthServer', () => {
  let storageUp = true;
  let server: HealthServer;
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  beforeAll(async () => {
    server = await startHealthServer({
      service: 'media',
      host: '127.0.0.1',
      port: 0,
      checks: {
        database: async () => undefined,
        storage: async () => {
          if (!storageUp) throw new Error('connect ECONNREFUSED 127.0.0.1:9000');
        },
      },
    });
  });
  afterAll(() => server.close());

  it('answers readiness with the service checks, 200 while all pass', async () => {
    storageUp = true;
    const res = await fetch(url('/readyz'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ service: 'media', status: 'ok', checks: { database: { status: 'ok' }, storage: { status: 'ok' } } });
  });

  it('turns readiness 503 naming the failing dependency, while liveness stays 200', async () => {
    storageUp = false;
    const ready = await fetch(url('/readyz'));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'degraded', checks: { storage: { status: 'down', detail: 'connect ECONNREFUSED 127.0.0.1:9000' } } });
    const live = await fetch(url('/healthz'));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok', service: 'media' });
  });

  it('serves the process metrics in Prometheus text format', async () => {
    const res = await fetch(url('/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# TYPE stemdeck_job_duration_seconds histogram$/m);
    expect(text).toMatch(/^# TYPE stemdeck_storage_written_bytes_total counter$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('answers other paths 404 and other methods 405', async () => {
    expect((await fetch(url('/metric'))).status).toBe(404);
    expect((await fetch(url('/metrics'), { method: 'POST' })).status).toBe(405);
    expect((await fetch(url('/readyz'), { method: 'POST' })).status).toBe(405);
  });
});
