import { Logger } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import {
  AckPolicy,
  connect,
  ConsumerMessages,
  DeliverPolicy,
  JsMsg,
  NatsConnection,
  nanos,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { ZodType } from 'zod';
import { jetstreamRedeliveries, jobDuration, watchWorkQueue } from './metrics';
import { NATS_RECONNECT_FOREVER } from './nats-reconnect';
import { extractTraceContext, injectTraceHeaders, messagingAttributes, withSpan } from './nats-trace';

export interface WorkQueueOptions {
  natsUrl: string;
  name: string;
  stream: string;
  subject: string;
  durable: string;
  /**
   * How long a delivered job may go without an ack or a heartbeat before JetStream redelivers it; each
   * later delivery waits twice as long as the one before (the consumer's backoff).
   */
  ackWaitMs: number;
  /** Deliveries before a job is given up (a poison message must not loop forever). */
  maxDeliver: number;
}

/** What a job handler sees: the payload plus ways to keep or give up the message. */
export interface WorkItem<T> {
  payload: T;
  /** 1 on first delivery, 2 after a redelivery, ... */
  deliveryCount: number;
  /** Last allowed attempt: a handler should mark the job failed rather than retry. */
  isLastAttempt: boolean;
  /** Tells JetStream the job is still being worked on, so ack_wait restarts. */
  heartbeat(): void;
  /**
   * Names the job's type and engine (or provider) for the job duration metric; a delivery never described
   * (a job already gone) is not timed.
   */
  describe?(labels: { type: string; engine: string }): void;
}

export type WorkOutcome = 'done' | 'retry' | 'give-up';

/**
 * A durable work queue on NATS JetStream: messages are kept until a worker acknowledges them, each
 * message goes to one worker, deduplicated by message id. Workers ack only after the work is stored,
 * so a crash mid-job means redelivery, not loss.
 */
export class JetStreamWorkQueue<T> {
  private readonly logger: Logger;
  private connection?: NatsConnection;
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private unwatch?: () => void;

  constructor(
    private readonly options: WorkQueueOptions,
    private readonly schema: ZodType<T>,
  ) {
    this.logger = new Logger(`work-queue ${options.stream}`);
  }

  async connect(): Promise<void> {
    if (this.connection) return;
    this.connection = await connect({ servers: this.options.natsUrl, name: this.options.name, ...NATS_RECONNECT_FOREVER });
    const jsm = await this.connection.jetstreamManager();
    const streamConfig = {
      name: this.options.stream,
      subjects: [this.options.subject],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: nanos(10 * 60_000),
    };
    await jsm.streams.add(streamConfig).catch(async (error: Error) => {
      // The stream exists (another replica or an earlier run): bring its settings up to date.
      if (!/already in use|exists/i.test(error.message)) throw error;
      await jsm.streams.update(this.options.stream, streamConfig);
    });
    const consumerConfig = {
      durable_name: this.options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.options.ackWaitMs),
      max_deliver: this.options.maxDeliver,
      backoff: redeliveryBackoff(this.options),
      filter_subject: this.options.subject,
    };
    const existing = await jsm.consumers.info(this.options.stream, this.options.durable).catch(() => undefined);
    if (existing) await jsm.consumers.update(this.options.stream, this.options.durable, consumerConfig);
    else await jsm.consumers.add(this.options.stream, consumerConfig);
  }

  /** Publishes a job; the same `jobId` within the dedupe window is stored once. */
  async publish(jobId: string, payload: T): Promise<void> {
    const connection = this.requireConnection();
    const data = new TextEncoder().encode(JSON.stringify(this.schema.parse(payload)));
    await withSpan(
      `${this.options.subject} publish`,
      { kind: SpanKind.PRODUCER, attributes: messagingAttributes(this.options.subject, 'send') },
      async () => {
        await connection.jetstream().publish(this.options.subject, data, { msgID: jobId, headers: injectTraceHeaders() });
      },
    );
  }

  /** Starts pulling jobs one at a time (separation is CPU-bound; parallelism comes from replicas). */
  async start(handle: (item: WorkItem<T>) => Promise<WorkOutcome>): Promise<void> {
    const connection = this.requireConnection();
    const consumer = await connection.jetstream().consumers.get(this.options.stream, this.options.durable);
    this.messages = await consumer.consume({ max_messages: 1 });
    // The workers report their queue's backlog and redeliveries on every scrape; the counter starts at 0.
    jetstreamRedeliveries.inc({ stream: this.options.stream, consumer: this.options.durable }, 0);
    const jsm = await connection.jetstreamManager();
    this.unwatch = watchWorkQueue(async () => {
      const info = await jsm.consumers.info(this.options.stream, this.options.durable);
      return { stream: this.options.stream, consumer: this.options.durable, pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered };
    });
    const messages = this.messages;
    this.loop = (async () => {
      for await (const message of messages) await this.process(message, handle);
    })().catch((error: Error) => this.logger.error(`consumer stopped: ${error.message}`));
  }

  private async process(message: JsMsg, handle: (item: WorkItem<T>) => Promise<WorkOutcome>): Promise<void> {
    const parsed = this.schema.safeParse(safeJson(message.data));
    if (!parsed.success) {
      this.logger.warn(`dropping malformed job ${message.seq}: ${parsed.error.message}`);
      message.term();
      return;
    }
    const deliveryCount = message.info.redeliveryCount;
    if (deliveryCount > 1) jetstreamRedeliveries.inc({ stream: this.options.stream, consumer: this.options.durable });
    let timed: { type: string; engine: string } | undefined;
    const startedAt = performance.now();
    const item: WorkItem<T> = {
      payload: parsed.data,
      deliveryCount,
      isLastAttempt: deliveryCount >= this.options.maxDeliver,
      heartbeat: () => message.working(),
      describe: (labels) => (timed = labels),
    };
    let outcome: WorkOutcome | 'error' = 'error';
    // Heartbeats keep a long job from being redelivered to another worker while this one is alive.
    const keepAlive = setInterval(() => message.working(), Math.max(1000, this.options.ackWaitMs / 3));
    try {
      outcome = await withSpan(
        `${this.options.subject} process`,
        { kind: SpanKind.CONSUMER, attributes: messagingAttributes(this.options.subject, 'process') },
        () => handle(item),
        extractTraceContext(message.headers),
      );
      // A job to retry is left unacknowledged: JetStream redelivers it after this delivery's backoff, as it
      // does for a worker that died (a nak would bring it back at once: the backoff only times ack waits).
      if (outcome === 'done') await message.ackAck();
      else if (outcome === 'give-up') message.term();
    } catch (error) {
      this.logger.error(`job ${message.seq} failed: ${(error as Error).message}`);
    } finally {
      clearInterval(keepAlive);
      if (timed) jobDuration.observe({ ...timed, outcome }, (performance.now() - startedAt) / 1000);
    }
  }

  async close(): Promise<void> {
    this.unwatch?.();
    await this.messages?.close();
    await this.loop;
    await this.connection?.drain();
    this.connection = undefined;
  }

  private requireConnection(): NatsConnection {
    if (!this.connection) throw new Error('work queue is not connected');
    return this.connection;
  }
}

/**
 * The consumer's ack wait for each delivery: `ackWaitMs` for the first, doubling after it. JetStream takes
 * the first entry as the ack wait and repeats the last one; it accepts at most `maxDeliver` entries, and the
 * last delivery's is never needed to schedule another.
 */
export function redeliveryBackoff({ ackWaitMs, maxDeliver }: Pick<WorkQueueOptions, 'ackWaitMs' | 'maxDeliver'>): number[] {
  return Array.from({ length: Math.max(1, maxDeliver - 1) }, (_, delivery) => nanos(ackWaitMs * 2 ** delivery));
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
}
