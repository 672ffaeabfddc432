import { Logger } from '@nestjs/common';
import { NATS_RECONNECT_FOREVER } from '@stemdeck/platform';
import { PRESENCE_BUCKET, PRESENCE_TTL_MS, SessionEvent, sessionEventsSubject } from '@stemdeck/proto';
import { connect, type KV, type NatsConnection } from 'nats';

export const SESSION_ROOM_BUS = Symbol('SESSION_ROOM_BUS');

/** How the live rooms of collaborative sessions meet across gateway replicas: one session's events, and its presence keys. */
export interface SessionRoomBus {
  connect(): Promise<void>;
  /** Publishes one event to every gateway with a socket in the session. */
  publish(sessionId: string, event: SessionEvent): void;
  /**
   * The session's events (validated; malformed ones are dropped) until the returned function is called. Resolves once
   * NATS has the subscription, so an event published after that reaches it.
   */
  subscribe(sessionId: string, onEvent: (event: SessionEvent) => void): Promise<() => void>;
  /** Puts one socket's presence key again, so it lives another PRESENCE_TTL_MS. */
  putPresence(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The SessionRoomBus on core NATS (events are ephemeral: a socket catches up through `session_joined`) and the
 * presence KV bucket, which this gateway creates if the sessions service has not yet: max age PRESENCE_TTL_MS,
 * one value per key (the same settings the service asks for, so either may create it).
 */
export class NatsSessionRoomBus implements SessionRoomBus {
  private readonly logger = new Logger(NatsSessionRoomBus.name);
  private connection?: NatsConnection;
  private bucket?: Promise<KV>;

  constructor(private readonly natsUrl: string) {}

  async connect(): Promise<void> {
    this.connection ??= await connect({ servers: this.natsUrl, name: 'stemdeck-gateway-sessions', ...NATS_RECONNECT_FOREVER });
    // Made now when it can be; a failure here is tried again at the first heartbeat.
    await this.presence().catch((error: Error) => this.logger.warn(`presence bucket not ready yet: ${error.message}`));
  }

  private get nats(): NatsConnection {
    if (!this.connection) throw new Error('session room bus is not connected');
    return this.connection;
  }

  publish(sessionId: string, event: SessionEvent): void {
    this.nats.publish(sessionEventsSubject(sessionId), encoder.encode(JSON.stringify(event)));
  }

  async subscribe(sessionId: string, onEvent: (event: SessionEvent) => void): Promise<() => void> {
    const subject = sessionEventsSubject(sessionId);
    const subscription = this.nats.subscribe(subject, {
      callback: (error, message) => {
        if (error) return this.logger.warn(`subscription ${subject}: ${error.message}`);
        let data: unknown;
        try {
          data = JSON.parse(decoder.decode(message.data));
        } catch {
          return this.logger.warn(`malformed session event on ${subject}`);
        }
        const parsed = SessionEvent.safeParse(data);
        if (!parsed.success || parsed.data.message.sessionId !== sessionId) return this.logger.warn(`invalid session event on ${subject}`);
        onEvent(parsed.data);
      },
    });
    await this.nats.flush();
    return () => subscription.unsubscribe();
  }

  async putPresence(key: string, value: string): Promise<void> {
    const bucket = await this.presence();
    await bucket.put(key, encoder.encode(value));
  }

  /** The bucket, created once if missing; a failed attempt (NATS not ready, a creation race) is tried again next time. */
  private presence(): Promise<KV> {
    this.bucket ??= this.nats
      .jetstream()
      .views.kv(PRESENCE_BUCKET, { ttl: PRESENCE_TTL_MS, history: 1 })
      .catch((error: Error) => {
        this.bucket = undefined;
        throw error;
      });
    return this.bucket;
  }

  async close(): Promise<void> {
    await this.connection?.drain();
    this.connection = undefined;
    this.bucket = undefined;
  }
}
