import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@stemdeck/platform';
import type { CreateSessionRequest, Session } from '@stemdeck/proto';
import { NOT_YOUR_SESSION, PROJECT_NOT_FOUND, failure } from './session-failures';
import { toSession } from './session-views';
import { SESSION_PROJECTS, SESSION_STORE, type SessionProjects, type SessionStore } from './sessions.ports';

/** A signed-in user opens a session on one of their projects; they are its host and first participant. */
@Injectable()
export class CreateSessionUseCase {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'create'>,
    @Inject(SESSION_PROJECTS) private readonly projects: Pick<SessionProjects, 'projectName'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ userId, name, projectName, body }: CreateSessionRequest): Promise<Session> {
    if (body.hostUserId !== userId) throw failure(403, NOT_YOUR_SESSION);
    // The project must be the host's: media answers for its owner only.
    const storedName = await this.projects.projectName(userId, body.projectId);
    if (storedName === null) throw failure(404, PROJECT_NOT_FOUND);
    const now = new Date(this.clock.now());
    const session = {
      _id: this.ids.randomUUID(),
      name: body.name,
      projectId: body.projectId,
      projectName: storedName || projectName,
      hostUserId: userId,
      hostName: name,
      maxParticipants: body.maxParticipants,
      isActive: true,
      createdAt: now,
      mix: {},
      transport: { playing: false, position: 0, at: now.getTime() },
    };
    const host = { _id: this.ids.randomUUID(), sessionId: session._id, userId, name, role: 'host' as const, joinedAt: now, lastActive: now };
    await this.sessions.create(session, host);
    return toSession(session, 1);
  }
}
