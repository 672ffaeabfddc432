import { Inject, Injectable } from '@nestjs/common';
import { CHAT_HISTORY_ON_JOIN, type LiveEnterRequest, type LiveSessionState } from '@stemdeck/proto';
import { SessionAccess } from '../sessions/session-access';
import { failure } from '../sessions/session-failures';
import { toChatMessage } from '../sessions/session-views';
import { CHAT_STORE, completeMix, type ChatStore } from '../sessions/sessions.ports';
import { PresenceTracker } from './presence-tracker';
import { validPresenceParts } from './presence-keys';

/**
 * A socket enters a session's live room: the caller must be a participant of the active session. Their
 * presence key is put (their first socket announces them online), and the answer is everything a late
 * joiner needs: participants with presence, the mix, the transport and the recent chat.
 */
@Injectable()
export class LiveEnterUseCase {
  constructor(
    private readonly access: SessionAccess,
    private readonly presence: PresenceTracker,
    @Inject(CHAT_STORE) private readonly chat: Pick<ChatStore, 'newest'>,
  ) {}

  async execute({ userId, sessionId, connectionId }: LiveEnterRequest): Promise<LiveSessionState> {
    const { session, participant } = await this.access.activeMembership(userId, sessionId);
    if (!validPresenceParts(userId, connectionId)) throw failure(400, 'That connection cannot be tracked in the session (its id has characters presence keys do not allow)');
    await this.presence.enter(participant, connectionId);
    const [sessionView, participants, chat] = await Promise.all([
      this.access.sessionView(session),
      this.access.participantViews(sessionId),
      this.chat.newest(sessionId, CHAT_HISTORY_ON_JOIN),
    ]);
    return {
      session: sessionView,
      role: participant.role,
      participants,
      mix: completeMix(session.mix),
      transport: session.transport,
      chat: chat.map(toChatMessage),
    };
  }
}
