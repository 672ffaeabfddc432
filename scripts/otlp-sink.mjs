// A minimal OTLP/HTTP (JSON) trace receiver for tests: appends one line per received span to a file,
// so a test can prove that one trace id spans several processes.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const attr = (attributes, key) => attributes?.find((a) => a.key === key)?.value?.stringValue;

export function startOtlpSink(port, file) {
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/traces')) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const lines = [];
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = attr(resourceSpans.resource?.attributes, 'service.name');
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              lines.push(JSON.stringify({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId, name: span.name, kind: span.kind }));
            }
          }
        }
        if (lines.length) appendFileSync(file, `${lines.join('\n')}\n`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: error.message }));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
