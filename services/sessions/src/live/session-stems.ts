import { Inject, Injectable } from '@nestjs/common';
import type { SessionDocument } from '../sessions/session.schema';
import { SESSION_PROJECTS, type SessionProjects } from '../sessions/sessions.ports';

const MAX_CACHED_SESSIONS = 1000;

/**
 * Which stems belong to a session's project (the host's project, asked of media), remembered per session;
 * an id not remembered is asked again once, since the project may have been separated since.
 */
@Injectable()
export class SessionStems {
  private readonly known = new Map<string, Set<string>>();

  constructor(@Inject(SESSION_PROJECTS) private readonly projects: Pick<SessionProjects, 'stems'>) {}

  async includes(session: Pick<SessionDocument, '_id' | 'hostUserId' | 'projectId'>, stemId: string): Promise<boolean> {
    if (this.known.get(session._id)?.has(stemId)) return true;
    const stems = new Set((await this.projects.stems(session.hostUserId, session.projectId)).map((stem) => stem.id));
    this.known.delete(session._id);
    if (this.known.size >= MAX_CACHED_SESSIONS) this.known.delete(this.known.keys().next().value!);
    this.known.set(session._id, stems);
    return stems.has(stemId);
  }
}
