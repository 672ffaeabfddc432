import { connect, type NatsConnection } from 'nats';
import { NATS_RECONNECT_FOREVER } from '@stemdeck/platform';
import { OutputControlReply, OutputControlRequest, outputSubjects } from '@stemdeck/proto';

export const OUTPUT_BUS = Symbol('OUTPUT_BUS');

/** How output keys meet across gateway replicas: frames and a small request/reply per key (by the key's hash). */
export interface OutputBus {
  connect(): Promise<void>;
  publishFrame(keyHash: string, frame: Uint8Array): void;
  /** Frames of one key until the returned function is called. */
  subscribeFrames(keyHash: string, onFrame: (frame: Uint8Array) => void): () => void;
  /** Answers one key's control requests (the gateway holding its studio socket) until the returned function is called. */
  serveControl(keyHash: string, handle: (request: OutputControlRequest) => OutputControlReply): () => void;
  /** The answer of whoever serves the key, or null when nobody does (or it did not answer in time). */
  request(keyHash: string, request: OutputControlRequest, timeoutMs: number): Promise<OutputControlReply | null>;
  /** A control message that needs no answer (`leave`). */
  notify(keyHash: string, request: OutputControlRequest): void;
  close(): Promise<void>;
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
function decode<T>(data: Uint8Array, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(new TextDecoder().decode(data)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The OutputBus on core NATS (ephemeral: frames missed while nobody listens are simply gone). */
export class NatsOutputBus implements OutputBus {
  private connection?: NatsConnection;

  constructor(private readonly natsUrl: string) {}

  async connect(): Promise<void> {
    this.connection ??= await connect({ servers: this.natsUrl, name: 'stemdeck-gateway-outputs', ...NATS_RECONNECT_FOREVER });
  }

  private get nats(): NatsConnection {
    if (!this.connection) throw new Error('output bus is not connected');
    return this.connection;
  }

  publishFrame(keyHash: string, frame: Uint8Array): void {
    this.nats.publish(outputSubjects(keyHash).frames, frame);
  }

  subscribeFrames(keyHash: string, onFrame: (frame: Uint8Array) => void): () => void {
    const subscription = this.nats.subscribe(outputSubjects(keyHash).frames, { callback: (error, message) => !error && onFrame(message.data) });
    return () => subscription.unsubscribe();
  }

  serveControl(keyHash: string, handle: (request: OutputControlRequest) => OutputControlReply): () => void {
    const subscription = this.nats.subscribe(outputSubjects(keyHash).control, {
      callback: (error, message) => {
        if (error) return;
        const request = decode(message.data, OutputControlRequest);
        if (!request) return;
        const reply = handle(request);
        if (message.reply) message.respond(encode(reply));
      },
    });
    return () => subscription.unsubscribe();
  }

  async request(keyHash: string, request: OutputControlRequest, timeoutMs: number): Promise<OutputControlReply | null> {
    try {
      const message = await this.nats.request(outputSubjects(keyHash).control, encode(request), { timeout: timeoutMs });
      return decode(message.data, OutputControlReply);
    } catch {
      return null; // no responders, or a timeout: nobody serves this key
    }
  }

  notify(keyHash: string, request: OutputControlRequest): void {
    this.nats.publish(outputSubjects(keyHash).control, encode(request));
  }

  async close(): Promise<void> {
    await this.connection?.drain();
    this.connection = undefined;
  }
}
