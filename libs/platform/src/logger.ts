import { Logger, type LoggerService } from '@nestjs/common';
import { isSpanContextValid, trace } from '@opentelemetry/api';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'verbose';

/** One log line as every process writes it (a JSON object per line). */
export interface LogLine {
  time: string;
  level: LogLevel;
  service: string;
  context: string | null;
  message: unknown;
  /** The trace this line belongs to (null for lines outside any request, message or job: boot, shutdown). */
  trace_id: string | null;
  span_id: string | null;
  stack?: string;
}

/**
 * Nest's logger, writing one JSON object per line with the service, the logger's context and the active
 * trace and span ids, so a line found in a log leads to its trace in the viewer and back. Errors and fatal
 * lines go to stderr, the rest to stdout. Nest passes the context as the last string argument and, for
 * errors, a stack before it.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly service: string,
    private readonly write: (line: string, level: LogLevel) => void = writeToConsole,
    private readonly now: () => Date = () => new Date(),
  ) {}

  log(message: unknown, ...params: unknown[]): void {
    this.print('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.print('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.print('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.print('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.print('verbose', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.print('fatal', message, params);
  }

  private print(level: LogLevel, message: unknown, params: unknown[]): void {
    const strings = params.filter((param): param is string => typeof param === 'string');
    const context = params.length > 0 && typeof params.at(-1) === 'string' ? (params.at(-1) as string) : null;
    // Nest's error(message, stack, context): a string before the context is the stack.
    const stackParam = (level === 'error' || level === 'fatal') && strings.length >= 2 ? strings.at(-2) : undefined;
    const error = message instanceof Error ? message : undefined;
    const span = trace.getActiveSpan()?.spanContext();
    const traced = span && isSpanContextValid(span) ? span : undefined;
    const line: LogLine = {
      time: this.now().toISOString(),
      level,
      service: this.service,
      context,
      message: error ? error.message : message,
      trace_id: traced?.traceId ?? null,
      span_id: traced?.spanId ?? null,
    };
    const stack = error?.stack ?? stackParam;
    if (stack) line.stack = stack;
    this.write(`${safeStringify(line)}\n`, level);
  }
}

function writeToConsole(line: string, level: LogLevel): void {
  (level === 'error' || level === 'fatal' ? process.stderr : process.stdout).write(line);
}

/** JSON that never throws: a message that cannot be serialised (a cycle, a BigInt) is logged as its text. */
function safeStringify(line: LogLine): string {
  try {
    return JSON.stringify(line);
  } catch {
    return JSON.stringify({ ...line, message: String(line.message) });
  }
}

/** Makes every Nest logger of this process (`new Logger(context)`, the framework's own) write JSON lines. */
export function useJsonLogs(service: string): void {
  Logger.overrideLogger(new JsonLogger(service));
}
