import { Inject, Injectable } from '@nestjs/common';
import type { Participant, Session } from '@stemdeck/proto';
import type { ParticipantDocument, SessionDocument } from './session.schema';
import { SESSION_NOT_ACTIVE, SESSION_NOT_FOUND, failure } from './session-failures';
import { toParticipant, toSession } from './session-views';
import { PRESENCE_BOARD, SESSION_STORE, type PresenceBoard, type SessionStore } from './sessions.ports';

export interface Membership {
  session: SessionDocument;
  participant: ParticipantDocument;
}

/**
 * A session as its participants reach it. Anyone who is not in it gets the same 404 as for an unknown id,
 * so a session's existence says nothing to outsiders.
 */
@Injectable()
export class SessionAccess {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(PRESENCE_BOARD) private readonly presence: PresenceBoard,
  ) {}

  async membership(userId: string, sessionId: string): Promise<Membership> {
    const session = await this.sessions.find(sessionId);
    const participant = session && (await this.sessions.findParticipant(sessionId, userId));
    if (!session || !participant) throw failure(404, SESSION_NOT_FOUND);
    return { session, participant };
  }

  /** A participant of an active session (409 once it has ended). */
  async activeMembership(userId: string, sessionId: string): Promise<Membership> {
    const membership = await this.membership(userId, sessionId);
    if (!membership.session.isActive) throw failure(409, SESSION_NOT_ACTIVE);
    return membership;
  }

  async sessionView(session: SessionDocument): Promise<Session> {
    const counts = await this.sessions.countParticipants([session._id]);
    return toSession(session, counts.get(session._id) ?? 0);
  }

  async participantView(participant: ParticipantDocument): Promise<Participant> {
    return toParticipant(participant, await this.presence.isOnline(participant.sessionId, participant.userId));
  }

  /** Everyone in the session with presence, in the order they joined. */
  async participantViews(sessionId: string): Promise<Participant[]> {
    const [participants, online] = await Promise.all([this.sessions.listParticipants(sessionId), this.presence.onlineUsers(sessionId)]);
    return participants.map((participant) => toParticipant(participant, online.has(participant.userId)));
  }
}
