import { Logger } from '@nestjs/common';
import { connect, NatsConnection, Subscription } from 'nats';
import { ZodType } from 'zod';
import { NATS_RECONNECT_FOREVER } from './nats-reconnect';
import { extractTraceContext, injectTraceHeaders, messagingAttributes } from './nats-trace';
import { inSyncSpan, SPAN_ATTRIBUTES } from './spans';

export interface EventBusOptions {
  /** The server does not hand this connection what it published itself (a process that hears only the others). */
  noEcho?: boolean;
}

/**
 * Fire-and-forget events on core NATS (progress, readiness). Ephemeral by design: a missed progress
 * event is harmless because the durable state lives in the database and is fetched on demand.
 */
export class NatsEventBus {
  private readonly logger = new Logger(NatsEventBus.name);
  private connection?: NatsConnection;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly natsUrl: string,
    private readonly name: string,
    private readonly options: EventBusOptions = {},
  ) {}

  async connect(): Promise<void> {
    this.connection ??= await connect({ servers: this.natsUrl, name: this.name, noEcho: this.options.noEcho ?? false, ...NATS_RECONNECT_FOREVER });
  }

  publish(subject: string, payload: unknown): void {
    if (!this.connection) throw new Error('event bus is not connected');
    this.connection.publish(subject, new TextEncoder().encode(JSON.stringify(payload)), { headers: injectTraceHeaders() });
  }

  /**
   * Subscribes with validation at the receiving edge; malformed events are logged and skipped. `accepts`, when
   * given, passes by a message by its subject alone, before it is read, checked or traced (events this process
   * has nothing to do with).
   */
  subscribe<T>(subject: string, schema: ZodType<T>, handle: (event: T) => void, accepts?: (subject: string) => boolean): void {
    if (!this.connection) throw new Error('event bus is not connected');
    const subscription = this.connection.subscribe(subject, {
      callback: (error, message) => {
        if (error) return this.logger.warn(`subscription ${subject}: ${error.message}`);
        if (accepts && !accepts(message.subject)) return;
        let data: unknown;
        try {
          data = JSON.parse(new TextDecoder().decode(message.data));
        } catch {
          return this.logger.warn(`malformed event on ${message.subject}`);
        }
        const parsed = schema.safeParse(data);
        if (!parsed.success) return this.logger.warn(`invalid event on ${message.subject}: ${parsed.error.message}`);
        // Handled in the publisher's trace: the work that raised an event and its delivery read as one trace.
        const type = (parsed.data as { type?: unknown } | null)?.type;
        const attributes = { ...messagingAttributes(subject, 'process'), ...(typeof type === 'string' ? { [SPAN_ATTRIBUTES.eventType]: type } : {}) };
        inSyncSpan(`${subject} process`, 'consumer', attributes, () => handle(parsed.data), extractTraceContext(message.headers));
      },
    });
    this.subscriptions.push(subscription);
  }

  /**
   * Resolves once the server has received everything published so far (a round trip), or after `timeoutMs`
   * (false then: the connection is away and the messages wait in its buffer).
   */
  async flush(timeoutMs: number): Promise<boolean> {
    if (!this.connection) throw new Error('event bus is not connected');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.connection.flush().then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Calls `handle` each time the connection is lost or made again (nats.js's `disconnect` and `reconnect`):
   * what was published meanwhile by others did not reach this process's subscriptions.
   */
  onConnectionChange(handle: (change: 'disconnect' | 'reconnect') => void): void {
    if (!this.connection) throw new Error('event bus is not connected');
    const statuses = this.connection.status();
    void (async () => {
      for await (const status of statuses) if (status.type === 'disconnect' || status.type === 'reconnect') handle(status.type);
    })().catch((error: Error) => this.logger.warn(`connection status: ${error.message}`));
  }

  async close(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    await this.connection?.drain();
    this.connection = undefined;
  }
}
