import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { isProbeRequest, redactSecretPath, spanProcessorsFromEnv } from './tracing';

describe('redactSecretPath', () => {
  it('replaces a share token in the public API and the player path, keeping the rest', () => {
    expect(redactSecretPath('/api/share/abcDEF_-123')).toBe('/api/share/:token');
    expect(redactSecretPath('/api/share/abcDEF_-123/stems/s1/audio?x=1')).toBe('/api/share/:token/stems/s1/audio?x=1');
    expect(redactSecretPath('/s/abcDEF_-123')).toBe('/s/:token');
  });

  it('leaves other paths alone', () => {
    expect(redactSecretPath('/api/projects/p1/share-links')).toBe('/api/projects/p1/share-links');
    expect(redactSecretPath('/studio')).toBe('/studio');
  });
});

describe('isProbeRequest', () => {
  const before = process.env.HEALTH_PORT;
  afterEach(() => (before === undefined ? delete process.env.HEALTH_PORT : (process.env.HEALTH_PORT = before)));

  it('leaves liveness, replica readiness and the probe port out of traces, and keeps the studio readiness and real routes', () => {
    process.env.HEALTH_PORT = '8291';
    expect(isProbeRequest({ url: '/healthz', socket: { localPort: 8080 } })).toBe(true);
    expect(isProbeRequest({ url: '/readyz/replica?x=1', socket: { localPort: 8080 } })).toBe(true);
    expect(isProbeRequest({ url: '/readyz', socket: { localPort: 8291 } })).toBe(true);
    expect(isProbeRequest({ url: '/readyz', socket: { localPort: 8080 } })).toBe(false);
    expect(isProbeRequest({ url: '/api/projects', socket: { localPort: 8080 } })).toBe(false);
    delete process.env.HEALTH_PORT;
    expect(isProbeRequest({ url: '/readyz', socket: { localPort: 8291 } })).toBe(false);
  });
});

describe('spanProcessorsFromEnv', () => {
  it('exports nowhere when no endpoint is set', () => {
    expect(spanProcessorsFromEnv({})).toHaveLength(0);
    expect(spanProcessorsFromEnv({ OTEL_EXPORTER_ZIPKIN_ENDPOINT: '' })).toHaveLength(0);
  });

  it('sends spans to a Zipkin viewer as v2 JSON: name, ids, parent, service and attributes as tags', async () => {
    const received: Array<Record<string, unknown>> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/api/v2/spans') received.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<Record<string, unknown>>));
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const processors = spanProcessorsFromEnv({ OTEL_EXPORTER_ZIPKIN_ENDPOINT: `http://127.0.0.1:${port}/api/v2/spans` });
    expect(processors).toHaveLength(1);
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'stemdeck-test' }), spanProcessors: processors });
    const tracer = provider.getTracer('spec');
    const parent = tracer.startSpan('parent step');
    const child = tracer.startSpan('child step', { attributes: { 'stemdeck.project.id': 'p1', 'stemdeck.bytes': 42 } }, trace.setSpan(context.active(), parent));
    child.end();
    parent.end();
    await provider.forceFlush();
    await provider.shutdown();
    server.close();

    const byName = Object.fromEntries(received.map((span) => [span.name, span]));
    expect(Object.keys(byName).sort()).toEqual(['child step', 'parent step']);
    expect(byName['child step']).toMatchObject({
      traceId: parent.spanContext().traceId,
      parentId: parent.spanContext().spanId,
      localEndpoint: { serviceName: 'stemdeck-test' },
      tags: expect.objectContaining({ 'stemdeck.project.id': 'p1', 'stemdeck.bytes': '42' }),
    });
    expect(byName['parent step']).not.toHaveProperty('parentId');
  });
});
