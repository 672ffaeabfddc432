import { httpRequests, metricsRegistry } from '@stemdeck/platform';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { httpMetrics, routeLabel } from './http-metrics.middleware';

const requestsOf = async (labels: Record<string, string>) =>
  (await httpRequests.get()).values.find((entry) => Object.entries(labels).every(([key, value]) => entry.labels[key as keyof typeof entry.labels] === value))?.value ?? 0;

describe('httpMetrics', () => {
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    const app = express();
    app.use(httpMetrics());
    // As Nest registers a controller's routes: on the app itself, with their templates.
    app.get('/api/projects/:id', (_req, res) => void res.json({ ok: true }));
    app.delete('/api/projects/:id', (_req, res) => void res.status(500).json({ error: 'boom' }));
    const router = express.Router();
    router.get('/:token', (_req, res) => void res.status(404).end());
    app.use('/api/share', router);
    app.use((req, res) => void res.status(req.path.startsWith('/api/') ? 404 : 200).send('page'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('counts each answer under its route template and status class, never the raw path', async () => {
    const before = await requestsOf({ method: 'GET', route: '/api/projects/:id', status_class: '2xx' });
    await fetch(`${base}/api/projects/p-123`);
    await fetch(`${base}/api/projects/p-456`);
    await fetch(`${base}/api/projects/p-789`, { method: 'DELETE' });
    await fetch(`${base}/api/share/secret-token-abc`);
    await fetch(`${base}/api/nothing/here`);
    await fetch(`${base}/studio/mixer`);
    expect(await requestsOf({ method: 'GET', route: '/api/projects/:id', status_class: '2xx' })).toBe(before + 2);
    expect(await requestsOf({ method: 'DELETE', route: '/api/projects/:id', status_class: '5xx' })).toBeGreaterThanOrEqual(1);
    expect(await requestsOf({ method: 'GET', route: '/api/share/:token', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(await requestsOf({ method: 'GET', route: '(unmatched)', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(await requestsOf({ method: 'GET', route: '(frontend)', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/^stemdeck_http_request_duration_seconds_count\{method="GET",route="\/api\/projects\/:id",status_class="2xx"\} \d+$/m);
    for (const id of ['p-123', 'p-789', 'secret-token-abc', '/api/nothing', '/studio']) expect(text).not.toContain(id);
  });

  it('labels requests without a route as the app or unmatched', () => {
    expect(routeLabel({ baseUrl: '', path: '/api/x/1' })).toBe('(unmatched)');
    expect(routeLabel({ baseUrl: '', path: '/api' })).toBe('(unmatched)');
    expect(routeLabel({ baseUrl: '', path: '/healthz' })).toBe('(unmatched)');
    expect(routeLabel({ baseUrl: '', path: '/apidocs' })).toBe('(frontend)');
    expect(routeLabel({ baseUrl: '', path: '/assets/index-abc.js' })).toBe('(frontend)');
    expect(routeLabel({ baseUrl: '/api/share', path: '/x', route: { path: '/:token' } })).toBe('/api/share/:token');
  });
});
