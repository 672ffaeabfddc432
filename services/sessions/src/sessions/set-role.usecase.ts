import { Inject, Injectable } from '@nestjs/common';
import type { Participant, SetRoleRequest } from '@stemdeck/proto';
import { SessionAccess } from './session-access';
import { HOST_ROLE_FIXED, ONLY_HOST_CHANGES_ROLES, PARTICIPANT_NOT_FOUND, failure } from './session-failures';
import { SESSION_EVENTS, SESSION_STORE, type SessionEventPublisher, type SessionStore } from './sessions.ports';

/** The host makes a participant a collaborator or a viewer; everyone in the session hears role_changed. */
@Injectable()
export class SetRoleUseCase {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'findParticipant' | 'setRole'>,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    private readonly access: SessionAccess,
  ) {}

  async execute({ userId, sessionId, targetUserId, role }: SetRoleRequest): Promise<Participant> {
    const { session } = await this.access.membership(userId, sessionId);
    if (userId !== session.hostUserId) throw failure(403, ONLY_HOST_CHANGES_ROLES);
    if (targetUserId === session.hostUserId) throw failure(403, HOST_ROLE_FIXED);
    const updated = await this.sessions.setRole(sessionId, targetUserId, role);
    if (!updated) throw failure(404, PARTICIPANT_NOT_FOUND);
    this.events.publish(sessionId, { origin: null, message: { type: 'role_changed', sessionId, userId: targetUserId, role } });
    return this.access.participantView(updated);
  }
}
