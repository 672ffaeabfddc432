import { Inject, Injectable } from '@nestjs/common';
import type { CreateSessionBody, Session } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { MediaClient } from '../media/media.client';
import { mustBeCaller, type SessionCaller } from './caller';
import { SessionsClient } from './sessions.client';

export const PROJECT_NOT_FOUND = 'Project not found';
export const HOST_MUST_BE_CALLER = 'You can only create sessions as yourself';

export type CreateSessionCalls = Pick<SessionsClient, 'create'>;
export type ProjectLookup = Pick<MediaClient, 'getProject'>;

/**
 * POST /api/sessions: the caller hosts a session on one of their own projects. Someone else's project (or one
 * that does not exist) is "Project not found", as everywhere else; the project's name travels with the session
 * so the session list shows it without asking media.
 */
@Injectable()
export class CreateSessionUseCase {
  constructor(
    @Inject(SessionsClient) private readonly sessions: CreateSessionCalls,
    @Inject(MediaClient) private readonly media: ProjectLookup,
  ) {}

  async execute(caller: SessionCaller, body: CreateSessionBody): Promise<Session> {
    mustBeCaller(body.hostUserId, caller, HOST_MUST_BE_CALLER);
    const project = await this.media.getProject(caller.id, body.projectId).catch((error: unknown) => {
      if (error instanceof DomainError && error.status === 404) throw new DomainError(404, PROJECT_NOT_FOUND);
      throw error;
    });
    return this.sessions.create({ userId: caller.id, name: caller.name, projectName: project.name, body });
  }
}
