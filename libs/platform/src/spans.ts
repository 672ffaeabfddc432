import { context, type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('stemdeck');

/**
 * Span attributes the services share, so one search in the trace viewer finds every span of a project.
 * Identifiers and figures only: never a person's name or email, a file name, a token or a signed URL.
 */
export const SPAN_ATTRIBUTES = {
  projectId: 'stemdeck.project.id',
  jobId: 'stemdeck.job.id',
  engine: 'stemdeck.engine',
  /** Bytes read or written by the step. */
  bytes: 'stemdeck.bytes',
  /** Seconds of audio the step handled. */
  audioSeconds: 'stemdeck.audio.seconds',
  stemType: 'stemdeck.stem.type',
  eventType: 'stemdeck.event.type',
  attempt: 'stemdeck.delivery.attempt',
} as const;

/** Records a failure on `span` (the error's message and type, marked as an error). */
function recordFailure(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
}

/**
 * Runs `work` in an internal span under the active one; `work` gets the span to add what it learns on the
 * way (bytes written, seconds decoded). The span ends when `work` settles and is marked failed if it throws.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Follows work that is not one awaited call (a streamed upload fed from callbacks): a span under the
 * active one, ended with the promise's outcome.
 */
export function spanUntilSettled<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes });
  const settled = context.with(trace.setSpan(context.active(), span), () => work(span));
  settled.then(
    () => span.end(),
    (error: unknown) => {
      recordFailure(span, error);
      span.end();
    },
  );
  return settled;
}

/** Adds attributes to the span the caller runs in (a message handler's, a job's); nothing when there is none. */
export function annotateSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * Runs `work` (synchronous) in a span for one message: `producer` around sending it (the span's context
 * goes into the message headers), `consumer` around handling it, under `parent` (the sender's context).
 */
export function inSyncSpan<T>(name: string, kind: 'producer' | 'consumer', attributes: Attributes, work: () => T, parent = context.active()): T {
  const span = tracer.startSpan(name, { kind: kind === 'producer' ? SpanKind.PRODUCER : SpanKind.CONSUMER, attributes }, parent);
  try {
    return context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** `fn`, run in the trace context active now whenever it is called later (from a callback or another stream's event). */
export function bindToActiveSpan<F extends (...args: never[]) => unknown>(fn: F): F {
  return context.bind(context.active(), fn);
}
