import { Logger } from '@nestjs/common';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { JsonLogger, type LogLine, type LogLevel } from './logger';

const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
provider.register();
afterAll(() => provider.shutdown());

function recordingLogger() {
  const lines: Array<{ text: string; level: LogLevel }> = [];
  const logger = new JsonLogger('stemdeck-media', (text, level) => lines.push({ text, level }), () => new Date('2026-01-02T03:04:05.000Z'));
  const parsed = () => lines.map((line) => JSON.parse(line.text) as LogLine);
  return { logger, lines, parsed };
}

describe('JsonLogger', () => {
  it('writes one JSON object per line: time, level, service, context, message, and no trace outside one', () => {
    const { logger, lines, parsed } = recordingLogger();
    logger.log('listening', 'bootstrap');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text.endsWith('\n')).toBe(true);
    expect(lines[0]!.text.trimEnd()).not.toContain('\n');
    expect(parsed()[0]).toEqual({ time: '2026-01-02T03:04:05.000Z', level: 'info', service: 'stemdeck-media', context: 'bootstrap', message: 'listening', trace_id: null, span_id: null });
  });

  it('carries the active trace and span ids', () => {
    const { logger, parsed } = recordingLogger();
    const span = trace.getTracer('spec').startSpan('job');
    context.with(trace.setSpan(context.active(), span), () => logger.warn('slow job', 'RunSeparationUseCase'));
    span.end();
    expect(parsed()[0]).toMatchObject({ level: 'warn', context: 'RunSeparationUseCase', trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
  });

  it("takes Nest's error arguments (message, stack, context) and Error objects; errors are told apart for stderr", () => {
    const { logger, lines, parsed } = recordingLogger();
    logger.error('job failed', 'Error: boom\n    at x', 'work-queue');
    logger.error(new Error('disk full'), 'storage');
    logger.log('fine');
    expect(parsed()[0]).toMatchObject({ level: 'error', message: 'job failed', stack: 'Error: boom\n    at x', context: 'work-queue' });
    expect(parsed()[1]).toMatchObject({ level: 'error', message: 'disk full', context: 'storage', stack: expect.stringContaining('disk full') });
    expect(parsed()[2]).toMatchObject({ level: 'info', message: 'fine', context: null });
    expect(lines.map((line) => line.level)).toEqual(['error', 'error', 'info']);
  });

  it("is what Nest's Logger writes through once it overrides the default", () => {
    const { logger, parsed } = recordingLogger();
    Logger.overrideLogger(logger);
    try {
      new Logger('IngestUploadUseCase').log('ingest p1: checked and queued in 12 ms');
      new Logger('work-queue').error('job 3 failed: timeout');
    } finally {
      Logger.overrideLogger(true);
    }
    expect(parsed()).toEqual([
      expect.objectContaining({ level: 'info', context: 'IngestUploadUseCase', message: 'ingest p1: checked and queued in 12 ms' }),
      expect.objectContaining({ level: 'error', context: 'work-queue', message: 'job 3 failed: timeout' }),
    ]);
    expect(parsed()[1]).not.toHaveProperty('stack');
  });

  it('logs a message that cannot be serialised as its text', () => {
    const { logger, parsed } = recordingLogger();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    logger.log(cyclic, 'x');
    expect(parsed()[0]!.message).toBe('[object Object]');
  });
});
