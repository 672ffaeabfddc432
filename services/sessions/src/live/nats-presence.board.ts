import { Logger } from '@nestjs/common';
import { NATS_RECONNECT_FOREVER } from '@stemdeck/platform';
import { PRESENCE_BUCKET, PRESENCE_TTL_MS, presenceKey } from '@stemdeck/proto';
import { connect, type KV, type NatsConnection } from 'nats';
import type { PresenceBoard } from '../sessions/sessions.ports';

/**
 * Presence keys in the NATS KV bucket PRESENCE_BUCKET: one per socket in a session, expiring after
 * PRESENCE_TTL_MS unless its gateway puts it again. The bucket is made here if no gateway has made it yet
 * (the same settings everywhere: one value per key, entries kept PRESENCE_TTL_MS).
 */
export class NatsPresenceBoard implements PresenceBoard {
  private readonly logger = new Logger(NatsPresenceBoard.name);

  private constructor(
    private readonly connection: NatsConnection,
    private readonly kv: KV,
  ) {}

  static async open(natsUrl: string): Promise<NatsPresenceBoard> {
    const connection = await connect({ servers: natsUrl, name: 'stemdeck-sessions-presence', ...NATS_RECONNECT_FOREVER });
    // Idempotent: an existing bucket is bound as it is.
    const kv = await connection.jetstream().views.kv(PRESENCE_BUCKET, { history: 1, ttl: PRESENCE_TTL_MS });
    return new NatsPresenceBoard(connection, kv);
  }

  async put(sessionId: string, userId: string, connectionId: string): Promise<void> {
    await this.kv.put(presenceKey(sessionId, userId, connectionId), JSON.stringify({ userId, connectionId }));
  }

  async delete(sessionId: string, userId: string, connectionId: string): Promise<void> {
    await this.kv.delete(presenceKey(sessionId, userId, connectionId));
  }

  async deleteUser(sessionId: string, userId: string): Promise<void> {
    for (const key of await this.keys(`${sessionId}.${userId}.*`)) await this.kv.delete(key);
  }

  async onlineUsers(sessionId: string): Promise<Set<string>> {
    return new Set((await this.keys(`${sessionId}.*.*`)).map((key) => key.split('.')[1]));
  }

  async isOnline(sessionId: string, userId: string): Promise<boolean> {
    return (await this.keys(`${sessionId}.${userId}.*`)).length > 0;
  }

  async onlinePairs(): Promise<Array<{ sessionId: string; userId: string }>> {
    const pairs = new Map<string, { sessionId: string; userId: string }>();
    for (const key of await this.keys('*.*.*')) {
      const [sessionId, userId] = key.split('.');
      pairs.set(`${sessionId}.${userId}`, { sessionId, userId });
    }
    return [...pairs.values()];
  }

  async close(): Promise<void> {
    await this.connection.drain().catch((error: Error) => this.logger.warn(`presence connection not drained: ${error.message}`));
  }

  /** The live (not deleted, not expired) keys matching a filter. */
  private async keys(filter: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await this.kv.keys(filter)) keys.push(key);
    return keys;
  }
}
