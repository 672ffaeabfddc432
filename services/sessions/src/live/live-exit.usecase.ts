import { Injectable } from '@nestjs/common';
import type { LiveExitRequest } from '@stemdeck/proto';
import { PresenceTracker } from './presence-tracker';
import { validPresenceParts } from './presence-keys';

/**
 * A socket left a session's live room (closed, left, removed, or the session ended): its presence key goes,
 * and the user's last socket announces them offline. Idempotent: an unknown key changes nothing.
 */
@Injectable()
export class LiveExitUseCase {
  constructor(private readonly presence: PresenceTracker) {}

  async execute({ userId, sessionId, connectionId }: LiveExitRequest): Promise<Record<string, never>> {
    // Ids that cannot form a key have no key to delete.
    if (validPresenceParts(sessionId, userId, connectionId)) await this.presence.exit(sessionId, userId, connectionId);
    return {};
  }
}
