import { Inject, Injectable } from '@nestjs/common';
import { SessionEnder } from './end-session';
import { SESSION_STORE, type SessionStore } from './sessions.ports';

/** A deleted project's sessions end (there is nothing left to play in them). Answers how many ended. */
@Injectable()
export class EndProjectSessionsUseCase {
  constructor(
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'listActiveForProject'>,
    private readonly ender: SessionEnder,
  ) {}

  async execute(ownerId: string, projectId: string): Promise<number> {
    let ended = 0;
    for (const session of await this.sessions.listActiveForProject(ownerId, projectId)) if (await this.ender.end(session)) ended += 1;
    return ended;
  }
}
