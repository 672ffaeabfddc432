import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@stemdeck/platform';
import { TRANSPORT_START_LEAD_MS, type LiveChangeRequest, type Transport } from '@stemdeck/proto';
import { SessionAccess } from '../sessions/session-access';
import { STEM_NOT_IN_SESSION, VIEWERS_CANNOT_PLAY, failure } from '../sessions/session-failures';
import { SESSION_EVENTS, SESSION_STORE, type SessionEventPublisher, type SessionStore } from '../sessions/sessions.ports';
import { SessionStems } from './session-stems';

/**
 * A change to the session's shared state from a socket: the transport (play or pause at a position) or one
 * stem's level or mute. The host and collaborators may make it; it is stored, then announced to every
 * socket, the sender's included (everyone follows the same stored state, e.g. the same start time).
 */
@Injectable()
export class LiveChangeUseCase {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'setTransport' | 'updateStemMix'>,
    @Inject(SESSION_EVENTS) private readonly events: SessionEventPublisher,
    private readonly access: SessionAccess,
    private readonly stems: SessionStems,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, sessionId, change }: LiveChangeRequest): Promise<Record<string, never>> {
    const { session, participant } = await this.access.activeMembership(userId, sessionId);
    if (participant.role !== 'host' && participant.role !== 'collaborator') throw failure(403, VIEWERS_CANNOT_PLAY);
    if (change.kind === 'transport') {
      const now = this.clock.now();
      // Play starts a little ahead, so every participant's player can be ready at the same moment.
      const transport: Transport =
        change.action === 'play' ? { playing: true, position: change.position, at: now + TRANSPORT_START_LEAD_MS } : { playing: false, position: change.position, at: now };
      await this.sessions.setTransport(sessionId, transport);
      this.events.publish(sessionId, { origin: null, message: { type: 'audio_sync', sessionId, userId, transport } });
      return {};
    }
    if (!(await this.stems.includes(session, change.stemId))) throw failure(400, STEM_NOT_IN_SESSION);
    const property = change.kind === 'stem_volume' ? 'volume' : 'muted';
    const mix = await this.sessions.updateStemMix(sessionId, change.stemId, change.kind === 'stem_volume' ? { volume: change.value } : { muted: change.value });
    this.events.publish(sessionId, {
      origin: null,
      message: { type: 'stem_changed', sessionId, userId, stemId: change.stemId, property, value: change.value, mix },
    });
    return {};
  }
}
