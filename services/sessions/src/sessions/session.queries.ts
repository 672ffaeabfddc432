import { Inject, Injectable } from '@nestjs/common';
import type { ChatMessage, Participant, Session } from '@stemdeck/proto';
import { SessionAccess } from './session-access';
import { toChatMessage, toSession } from './session-views';
import { CHAT_STORE, SESSION_STORE, type ChatStore, type SessionStore } from './sessions.ports';

/** How much of a session's chat its list shows (the newest, oldest first). */
export const CHAT_LIST_LIMIT = 200;

/** Reads of sessions, participants and chat; a session the caller is not in is 404. */
@Injectable()
export class SessionQueries {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'listForUser' | 'countParticipants'>,
    @Inject(CHAT_STORE) private readonly chat: Pick<ChatStore, 'newest'>,
    private readonly members: SessionAccess,
  ) {}

  /** The sessions the user hosts or joined, newest first. */
  async listForUser(userId: string): Promise<Session[]> {
    const sessions = await this.sessions.listForUser(userId);
    const counts = await this.sessions.countParticipants(sessions.map((session) => session._id));
    return sessions.map((session) => toSession(session, counts.get(session._id) ?? 0));
  }

  async participants(userId: string, sessionId: string): Promise<Participant[]> {
    await this.members.membership(userId, sessionId);
    return this.members.participantViews(sessionId);
  }

  /** The session and the caller's own record (what the gateway checks before serving the project's audio). */
  async access(userId: string, sessionId: string): Promise<{ session: Session; participant: Participant }> {
    const { session, participant } = await this.members.membership(userId, sessionId);
    const [sessionView, participantView] = await Promise.all([this.members.sessionView(session), this.members.participantView(participant)]);
    return { session: sessionView, participant: participantView };
  }

  async messages(userId: string, sessionId: string): Promise<ChatMessage[]> {
    await this.members.membership(userId, sessionId);
    return (await this.chat.newest(sessionId, CHAT_LIST_LIMIT)).map(toChatMessage);
  }
}
