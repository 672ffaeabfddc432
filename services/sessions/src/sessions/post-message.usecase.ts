import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@stemdeck/platform';
import type { ChatMessage, PostMessageRequest } from '@stemdeck/proto';
import { ChatRateLimiter } from './chat-rate-limiter';
import { SessionAccess } from './session-access';
import { CHAT_TOO_FAST, failure } from './session-failures';
import { toChatMessage } from './session-views';
import { CHAT_STORE, SESSION_EVENTS, type ChatStore, type SessionEventPublisher } from './sessions.ports';

/**
 * A participant's chat message: stored, then announced to the session (the socket it came from, if any,
 * is skipped: its gateway answers that socket itself).
 */
@Injectable()
export class PostMessageUseCase {
  /** Messages are listed in creation order; two in one millisecond still get distinct, ordered times. */
  private lastCreatedAt = 0;

  constructor(
    @Inject(CHAT_STORE) private readonly chat: Pick<ChatStore, 'add'>,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    private readonly access: SessionAccess,
    private readonly rateLimiter: ChatRateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ userId, name, sessionId, message, origin }: PostMessageRequest): Promise<ChatMessage> {
    await this.access.activeMembership(userId, sessionId);
    if (!this.rateLimiter.take(userId)) throw failure(429, CHAT_TOO_FAST);
    this.lastCreatedAt = Math.max(this.clock.now(), this.lastCreatedAt + 1);
    const doc = { _id: this.ids.randomUUID(), sessionId, userId, name, message: message.trim(), type: 'text' as const, createdAt: new Date(this.lastCreatedAt) };
    await this.chat.add(doc);
    const stored = toChatMessage(doc);
    this.events.publish(sessionId, { origin: origin ?? null, message: { type: 'chat_message', sessionId, message: stored } });
    return stored;
  }
}
