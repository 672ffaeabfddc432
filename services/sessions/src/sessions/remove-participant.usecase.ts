import { Inject, Injectable } from '@nestjs/common';
import type { RemoveParticipantRequest } from '@stemdeck/proto';
import { PresenceTracker } from '../live/presence-tracker';
import { SessionAccess } from './session-access';
import { SessionEnder } from './end-session';
import { ONLY_HOST_REMOVES, PARTICIPANT_NOT_FOUND, failure } from './session-failures';
import { SESSION_EVENTS, SESSION_STORE, type SessionEventPublisher, type SessionStore } from './sessions.ports';

/**
 * Someone leaves a session (removing themselves) or the host removes someone. The host leaving ends the
 * session. Whoever is no longer in it loses their presence keys, and their sockets hear participant_removed.
 */
@Injectable()
export class RemoveParticipantUseCase {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'findParticipant' | 'deleteParticipant'>,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    private readonly access: SessionAccess,
    private readonly presence: PresenceTracker,
    private readonly ender: SessionEnder,
  ) {}

  async execute({ userId, sessionId, targetUserId }: RemoveParticipantRequest): Promise<Record<string, never>> {
    const { session } = await this.access.membership(userId, sessionId);
    const isHost = userId === session.hostUserId;
    if (targetUserId === userId && isHost) {
      await this.ender.end(session);
      return {};
    }
    if (targetUserId !== userId && !isHost) throw failure(403, ONLY_HOST_REMOVES);
    if (!(await this.sessions.deleteParticipant(sessionId, targetUserId))) throw failure(404, PARTICIPANT_NOT_FOUND);
    await this.presence.removeUser(sessionId, targetUserId);
    this.events.publish(sessionId, { origin: null, message: { type: 'participant_removed', sessionId, userId: targetUserId, byUserId: userId } });
    return {};
  }
}
