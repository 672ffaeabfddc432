import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { annotateSpan, bindToActiveSpan, inSpan, inSyncSpan, spanUntilSettled } from './spans';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const tracer = trace.getTracer('spec');
const finished = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name)!;
const parentOf = (name: string) => finished(name).parentSpanContext?.spanId;

afterEach(() => exporter.reset());
afterAll(() => provider.shutdown());

describe('span helpers', () => {
  it('inSpan: a child of the active span that takes what work learns, and failures', async () => {
    await tracer.startActiveSpan('job', async (job) => {
      await inSpan('step', { 'stemdeck.project.id': 'p1' }, async (span) => {
        span.setAttribute('stemdeck.bytes', 10);
        annotateSpan({ 'stemdeck.audio.seconds': 3 });
      });
      await expect(inSpan('broken', {}, async () => Promise.reject(new Error('no disk')))).rejects.toThrow('no disk');
      job.end();
    });
    expect(parentOf('step')).toBe(finished('job').spanContext().spanId);
    expect(finished('step').attributes).toEqual({ 'stemdeck.project.id': 'p1', 'stemdeck.bytes': 10, 'stemdeck.audio.seconds': 3 });
    expect(finished('step').kind).toBe(SpanKind.INTERNAL);
    expect(finished('broken').status).toEqual({ code: SpanStatusCode.ERROR, message: 'no disk' });
  });

  it('spanUntilSettled: ends when the promise settles, whoever awaits it', async () => {
    let finish!: () => void;
    const job = tracer.startSpan('job');
    const upload = context.with(trace.setSpan(context.active(), job), () =>
      spanUntilSettled('upload', {}, () => new Promise<void>((resolve) => (finish = resolve))),
    );
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    finish();
    await upload;
    await new Promise((resolve) => setImmediate(resolve));
    job.end();
    expect(parentOf('upload')).toBe(job.spanContext().spanId);
  });

  it('inSyncSpan: producer and consumer spans under the given parent; bindToActiveSpan keeps the context for later calls', () => {
    const job = tracer.startSpan('job');
    const later = context.with(trace.setSpan(context.active(), job), () => bindToActiveSpan(() => inSyncSpan('send', 'producer', {}, () => trace.getActiveSpan())));
    const active = later();
    const received = inSyncSpan('receive', 'consumer', {}, () => 1, trace.setSpan(context.active(), active!));
    job.end();
    expect(received).toBe(1);
    expect(finished('send').kind).toBe(SpanKind.PRODUCER);
    expect(parentOf('send')).toBe(job.spanContext().spanId);
    expect(finished('receive').kind).toBe(SpanKind.CONSUMER);
    expect(parentOf('receive')).toBe(finished('send').spanContext().spanId);
  });
});
