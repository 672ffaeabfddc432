import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, Context } from '@opentelemetry/api';
import { headers as createHeaders, MsgHdrs } from 'nats';
import { Observable } from 'rxjs';

const tracer = trace.getTracer('stemdeck-nats');

/** Writes the active W3C trace context (traceparent/tracestate) into NATS message headers. */
export function injectTraceHeaders(hdrs: MsgHdrs = createHeaders(), from: Context = context.active()): MsgHdrs {
  propagation.inject(from, hdrs, { set: (carrier, key, value) => carrier.set(key, value) });
  return hdrs;
}

/** Reads the W3C trace context a sender put into NATS headers (ROOT when there is none). */
export function extractTraceContext(hdrs: MsgHdrs | undefined): Context {
  if (!hdrs) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, hdrs, {
    get: (carrier, key) => carrier.get(key) || undefined,
    keys: (carrier) => carrier.keys(),
  });
}

export const messagingAttributes = (subject: string, operation: 'send' | 'process' | 'receive') => ({
  'messaging.system': 'nats',
  'messaging.destination.name': subject,
  'messaging.operation.type': operation,
});

/** Runs `work` inside a span whose status reflects the outcome. */
export async function withSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Record<string, string | number | boolean> },
  work: () => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Continues the sender's trace in a NATS message handler: every handler runs inside a CONSUMER span
 * whose parent is the trace context from the message headers, so one trace spans gateway → service.
 */
@Injectable()
export class NatsTraceInterceptor implements NestInterceptor {
  intercept(executionContext: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (executionContext.getType() !== 'rpc') return next.handle();
    const nats = executionContext.switchToRpc().getContext<NatsContext>();
    const subject = nats.getSubject();
    const parent = extractTraceContext(nats.getHeaders());
    const span = tracer.startSpan(
      `${subject} process`,
      { kind: SpanKind.CONSUMER, attributes: messagingAttributes(subject, 'process') },
      parent,
    );
    const active = trace.setSpan(parent, span);
    return new Observable((subscriber) => {
      const subscription = context.with(active, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: Error) => {
            span.recordException(error);
            span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
            span.end();
            subscriber.error(error);
          },
          complete: () => {
            span.end();
            subscriber.complete();
          },
        }),
      );
      return () => subscription.unsubscribe();
    });
  }
}
