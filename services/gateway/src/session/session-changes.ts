import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { NATS_RECONNECT_FOREVER } from '@stemdeck/platform';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

/** Where a replica says that a session changed or ended (the others drop their copy of it). */
export const SESSION_CHANGED_SUBJECT = 'stemdeck.gateway.session-changed';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The gateway replicas telling one another which sessions changed, over core NATS: `announce` publishes a
 * session's key (a hash, never the id), `onChanged` hears the other replicas' (not this one's own).
 */
@Injectable()
export class SessionChanges implements OnApplicationShutdown {
  private readonly logger = new Logger(SessionChanges.name);
  private readonly origin = randomUUID();
  private connection?: NatsConnection;
  private listener: (key: string) => void = () => undefined;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'NATS_URL'>) {}

  async connect(): Promise<void> {
    this.connection ??= await connect({ servers: this.config.NATS_URL, name: 'stemdeck-gateway-session-changes', ...NATS_RECONNECT_FOREVER });
    this.connection.subscribe(SESSION_CHANGED_SUBJECT, {
      callback: (error, message) => {
        if (error) return this.logger.warn(`session changes: ${error.message}`);
        try {
          const { key, origin } = JSON.parse(decoder.decode(message.data)) as { key?: unknown; origin?: unknown };
          if (typeof key === 'string' && origin !== this.origin) this.listener(key);
        } catch {
          this.logger.warn('a malformed session change was ignored');
        }
      },
    });
  }

  onChanged(listener: (key: string) => void): void {
    this.listener = listener;
  }

  announce(key: string): void {
    try {
      this.connection?.publish(SESSION_CHANGED_SUBJECT, encoder.encode(JSON.stringify({ key, origin: this.origin })));
    } catch (error) {
      // NATS away: the other replicas' copies run out by themselves (SESSION_COPY_MS).
      this.logger.warn(`a session change was not announced: ${(error as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
    this.connection = undefined;
  }
}
