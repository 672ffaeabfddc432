import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Where this process sends its spans, from the environment: over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set, to a Zipkin trace viewer (its
 * /api/v2/spans) when OTEL_EXPORTER_ZIPKIN_ENDPOINT is set; both, one batch each, when both are.
 */
export function spanProcessorsFromEnv(env: NodeJS.ProcessEnv = process.env): SpanProcessor[] {
  const spanProcessors: SpanProcessor[] = [];
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  }
  if (env.OTEL_EXPORTER_ZIPKIN_ENDPOINT) {
    spanProcessors.push(new BatchSpanProcessor(new ZipkinExporter({ url: env.OTEL_EXPORTER_ZIPKIN_ENDPOINT })));
  }
  return spanProcessors;
}

/**
 * Starts the OpenTelemetry SDK for this process. Call it before anything imports `http` so incoming
 * and outgoing HTTP calls are traced. Spans are exported as `spanProcessorsFromEnv` says; with no
 * endpoint set, traces still propagate (W3C trace context) but are not exported anywhere. Nest's
 * logger then writes JSON lines with the trace id (`LOG_FORMAT=text`: Nest's own text lines).
 */
export function startTracing(serviceName: string, version = process.env.npm_package_version ?? '0.1.0'): void {
  if (provider) return;
  const spanProcessors = spanProcessorsFromEnv();
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? serviceName,
      [ATTR_SERVICE_VERSION]: version,
    }),
    spanProcessors,
  });
  provider.register();
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        // Orchestrator probes would drown real traffic in traces.
        ignoreIncomingRequestHook: isProbeRequest,
        // A share link's token is a secret the database keeps only hashed: spans must not carry it either.
        requestHook: (span, request) => {
          if (!('url' in request) || typeof request.url !== 'string') return;
          const redacted = redactSecretPath(request.url);
          if (redacted === request.url) return;
          span.setAttributes({ 'url.path': redacted.split('?')[0], 'http.target': redacted, 'http.url': redacted, 'url.full': redacted });
        },
      }),
    ],
  });
  // Log lines carry the active trace id, so the process's logs switch to JSON here, once tracing is on
  // (loaded only now: nothing may load `http` before the instrumentation above).
  if (process.env.LOG_FORMAT !== 'text') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { useJsonLogs } = require('./logger') as typeof import('./logger');
    useJsonLogs(process.env.OTEL_SERVICE_NAME ?? serviceName);
  }
}

/**
 * A liveness or replica-readiness probe, or anything on a NATS service's probe port (HEALTH_PORT): called
 * every few seconds by the orchestrator, never part of a user's journey. The gateway's `/readyz` (the whole
 * studio, asked by people and status pages) stays traced.
 */
export function isProbeRequest(req: { url?: string; socket?: { localPort?: number } }): boolean {
  const path = req.url?.split('?')[0];
  if (path === '/healthz' || path === '/readyz/replica') return true;
  const healthPort = Number(process.env.HEALTH_PORT);
  return Number.isInteger(healthPort) && healthPort > 0 && req.socket?.localPort === healthPort;
}

/** Paths that carry a share link's token (the public player and its API), with the token replaced. */
const SECRET_PATHS = [/^(\/api\/share\/)[^/?#]+/, /^(\/s\/)[^/?#]+/];

/** A request path with any share token replaced by `:token`, for traces and logs. */
export function redactSecretPath(path: string): string {
  for (const pattern of SECRET_PATHS) if (pattern.test(path)) return path.replace(pattern, '$1:token');
  return path;
}

/** Flushes pending spans; call on shutdown. */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
}

export { context, propagation, trace };
