import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { BASE_URL } from '../support/env';

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

const spansOf = (traceId: string): ExportedSpan[] => {
  const file = process.env.OTLP_SPANS_FILE!;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExportedSpan)
    .filter((span) => span.traceId === traceId);
};

describe('OpenTelemetry across the NATS hop', () => {
  it('one request to the gateway and the services it asks over NATS share one trace id', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentSpanId = randomBytes(8).toString('hex');
    const response = await fetch(`${BASE_URL}/readyz`, { headers: { traceparent: `00-${traceId}-${parentSpanId}-01` } });
    expect(response.status).toBe(200);

    const wanted = ['stemdeck-gateway', 'stemdeck-media', 'stemdeck-jobs', 'stemdeck-sessions', 'stemdeck-export'];
    const deadline = Date.now() + 10_000;
    let spans = spansOf(traceId);
    while (wanted.some((s) => !spans.some((span) => span.service === s)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      spans = spansOf(traceId);
    }
    for (const service of wanted) expect(spans.map((s) => s.service)).toContain(service);

    // The media handler's span is a child of the gateway's NATS send span.
    const send = spans.find((s) => s.service === 'stemdeck-gateway' && s.name === 'stemdeck.media.health send');
    const processSpan = spans.find((s) => s.service === 'stemdeck-media' && s.name === 'stemdeck.media.health process');
    expect(send).toBeDefined();
    expect(processSpan?.parentSpanId).toBe(send!.spanId);
    // And the gateway's HTTP server span continues the caller's trace.
    expect(spans.some((s) => s.service === 'stemdeck-gateway' && s.parentSpanId === parentSpanId)).toBe(true);
  });
});
