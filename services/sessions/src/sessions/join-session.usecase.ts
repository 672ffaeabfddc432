import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@stemdeck/platform';
import type { JoinSessionRequest, Participant, Session } from '@stemdeck/proto';
import { SessionAccess } from './session-access';
import { ONLY_CREATOR_IS_HOST, SESSION_FULL, SESSION_NOT_ACTIVE, SESSION_NOT_FOUND, failure } from './session-failures';
import type { ParticipantDocument } from './session.schema';
import { SESSION_EVENTS, SESSION_STORE, type SessionEventPublisher, type SessionStore } from './sessions.ports';

/**
 * Joins a session by its id (an invite is the id). A first join takes the asked role (collaborator or
 * viewer; only the creator is the host); a rejoin keeps the role the person has, and is never "full".
 */
@Injectable()
export class JoinSessionUseCase {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    private readonly access: SessionAccess,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ userId, name, sessionId, role }: JoinSessionRequest): Promise<{ session: Session; participant: Participant }> {
    const session = await this.sessions.find(sessionId);
    if (!session) throw failure(404, SESSION_NOT_FOUND);
    if (!session.isActive) throw failure(409, SESSION_NOT_ACTIVE);
    if (role === 'host' && userId !== session.hostUserId) throw failure(403, ONLY_CREATOR_IS_HOST);

    const existing = await this.sessions.findParticipant(sessionId, userId);
    if (existing) return this.answer(existing);

    const participants = await this.sessions.listParticipants(sessionId);
    if (participants.length >= session.maxParticipants) throw failure(409, SESSION_FULL);
    const now = new Date(this.clock.now());
    const joined: ParticipantDocument = { _id: this.ids.randomUUID(), sessionId, userId, name, role, joinedAt: now, lastActive: now };
    if (!(await this.sessions.addParticipant(joined))) {
      // The same person joined at the same moment from elsewhere: theirs is the record.
      const stored = await this.sessions.findParticipant(sessionId, userId);
      if (stored) return this.answer(stored);
      throw failure(404, SESSION_NOT_FOUND);
    }
    // Two people taking the last seat at once: the earlier join keeps it.
    const seats = await this.sessions.listParticipants(sessionId);
    if (seats.findIndex((participant) => participant._id === joined._id) >= session.maxParticipants) {
      await this.sessions.deleteParticipant(sessionId, userId);
      throw failure(409, SESSION_FULL);
    }
    const answer = await this.answer(joined);
    this.events.publish(sessionId, {
      origin: null,
      message: { type: 'user_joined', sessionId, userId, role: joined.role, participant: answer.participant },
    });
    return answer;
  }

  private async answer(participant: ParticipantDocument) {
    const session = await this.sessions.find(participant.sessionId);
    if (!session) throw failure(404, SESSION_NOT_FOUND);
    const [sessionView, participantView] = await Promise.all([this.access.sessionView(session), this.access.participantView(participant)]);
    return { session: sessionView, participant: participantView };
  }
}
