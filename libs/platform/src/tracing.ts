import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Starts the OpenTelemetry SDK for this process. Call it before anything imports `http` so incoming
 * and outgoing HTTP calls are traced. Spans are exported over OTLP/HTTP only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise traces still propagate (W3C trace context) but are
 * not exported anywhere.
 */
export function startTracing(serviceName: string, version = process.env.npm_package_version ?? '0.1.0'): void {
  if (provider) return;
  const spanProcessors: SpanProcessor[] = [];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  }
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
        // Health probes would drown real traffic in traces.
        ignoreIncomingRequestHook: (req) => req.url === '/healthz',
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
