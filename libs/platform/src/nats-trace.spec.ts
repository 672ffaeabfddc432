import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { extractTraceContext, injectTraceHeaders } from './nats-trace';

describe('trace context over NATS headers', () => {
  beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
  afterAll(() => propagation.disable());

  it('carries trace id and parent span id from sender to receiver', () => {
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
    const sending = trace.setSpanContext(context.active(), spanContext);
    const headers = injectTraceHeaders(undefined, sending);
    expect(headers.get('traceparent')).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');

    const received = trace.getSpanContext(extractTraceContext(headers));
    expect(received?.traceId).toBe(spanContext.traceId);
    expect(received?.spanId).toBe(spanContext.spanId);
    expect(received?.isRemote).toBe(true);
  });

  it('starts a new trace when the message has no headers', () => {
    expect(trace.getSpanContext(extractTraceContext(undefined))).toBeUndefined();
  });
});
