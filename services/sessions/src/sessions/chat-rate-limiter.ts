import type { Clock } from '@stemdeck/platform';
import { CHAT_RATE_LIMIT } from '@stemdeck/proto';

/**
 * At most CHAT_RATE_LIMIT.messages chat messages per user in any CHAT_RATE_LIMIT.windowMs, across all their
 * sessions. Kept in this process's memory: a restart forgets it, which costs at most one window's worth.
 */
export class ChatRateLimiter {
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: { messages: number; windowMs: number } = CHAT_RATE_LIMIT,
  ) {}

  /** Takes one message from the user's allowance; false (taking nothing) when it is used up. */
  take(userId: string): boolean {
    const now = this.clock.now();
    const recent = (this.sent.get(userId) ?? []).filter((at) => at > now - this.limit.windowMs);
    if (recent.length >= this.limit.messages) {
      this.sent.set(userId, recent);
      return false;
    }
    recent.push(now);
    this.sent.set(userId, recent);
    this.forgetQuietUsers(now);
    return true;
  }

  /** Users who sent nothing within the window need no entry. */
  private forgetQuietUsers(now: number): void {
    if (this.sent.size < 1000) return;
    for (const [userId, times] of this.sent) if (times.every((at) => at <= now - this.limit.windowMs)) this.sent.delete(userId);
  }
}
