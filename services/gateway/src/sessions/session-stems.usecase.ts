import { Inject, Injectable } from '@nestjs/common';
import type { ObjectLocation, Session, Stem } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { MediaClient } from '../media/media.client';
import { SessionsClient } from './sessions.client';

export const STEM_NOT_FOUND = 'Stem not found';
export const SESSION_NOT_ACTIVE = 'Session is not active';

/** Where a participant's browser fetches a session stem's audio: under the session, so access is the session's. */
export const sessionStemAudioPath = (sessionId: string, stemId: string): string =>
  `/api/sessions/${encodeURIComponent(sessionId)}/stems/${encodeURIComponent(stemId)}/audio`;

/**
 * A stem's url for the session's players: the version the host's mixer plays; an enhanced one names its job,
 * so no cache keyed by url hands out the original (or an older job's result) for it (the route ignores `job`).
 */
const sessionStemUrl = (sessionId: string, stem: Stem): string =>
  stem.version === 'enhanced' && stem.enhanced
    ? `${sessionStemAudioPath(sessionId, stem.id)}?job=${encodeURIComponent(stem.enhanced.jobId)}`
    : sessionStemAudioPath(sessionId, stem.id);

export type SessionAccessCalls = Pick<SessionsClient, 'access'>;
export type HostStemCalls = Pick<MediaClient, 'listStems' | 'stemAudio'>;

/**
 * The host's project stems, for the session's participants: the sessions service says whether the caller is
 * in the session (anyone else: 404 "Session not found"; an ended session 409), then media is asked as the host. Only stems of the
 * session's project are served; any other stem id is 404, whoever owns it.
 */
@Injectable()
export class SessionStemsUseCase {
  constructor(
    @Inject(SessionsClient) private readonly sessions: SessionAccessCalls,
    @Inject(MediaClient) private readonly media: HostStemCalls,
  ) {}

  async list(callerId: string, sessionId: string): Promise<Stem[]> {
    const session = await this.sessionOf(callerId, sessionId);
    const stems = await this.media.listStems(session.hostUserId, session.projectId);
    return stems.map((stem) => ({ ...stem, url: sessionStemUrl(session.id, stem) }));
  }

  /** Where the stem's audio is (the version the host's mixer plays). */
  async audio(callerId: string, sessionId: string, stemId: string): Promise<ObjectLocation> {
    const session = await this.sessionOf(callerId, sessionId);
    const stems = await this.media.listStems(session.hostUserId, session.projectId);
    if (!stems.some((stem) => stem.id === stemId)) throw new DomainError(404, STEM_NOT_FOUND);
    return this.media.stemAudio(session.hostUserId, stemId);
  }

  /** The session, while it runs: the host's project is heard through it only until it ends. */
  private async sessionOf(callerId: string, sessionId: string): Promise<Session> {
    const { session } = await this.sessions.access(callerId, sessionId);
    if (!session.isActive) throw new DomainError(409, SESSION_NOT_ACTIVE);
    return session;
  }
}
