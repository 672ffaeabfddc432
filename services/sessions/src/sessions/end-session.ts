import { Inject, Injectable } from '@nestjs/common';
import { PresenceTracker } from '../live/presence-tracker';
import type { SessionDocument } from './session.schema';
import { SESSION_EVENTS, SESSION_STORE, type SessionEventPublisher, type SessionStore } from './sessions.ports';

/**
 * Ends a session: it becomes inactive (nobody joins, nothing more is played; participants stay on record)
 * and every socket in it hears session_ended. Ending an ended session changes and announces nothing.
 */
@Injectable()
export class SessionEnder {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'end'>,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    private readonly presence: PresenceTracker,
  ) {}

  async end(session: Pick<SessionDocument, '_id'>): Promise<boolean> {
    if (!(await this.sessions.end(session._id))) return false;
    this.presence.forgetSession(session._id);
    this.events.publish(session._id, { origin: null, message: { type: 'session_ended', sessionId: session._id } });
    return true;
  }
}
