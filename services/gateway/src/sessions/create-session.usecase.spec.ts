import type { CreateSessionRequest, Project, Session } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { CreateSessionUseCase, HOST_MUST_BE_CALLER, PROJECT_NOT_FOUND, type CreateSessionCalls, type ProjectLookup } from './create-session.usecase';

const demo = { id: 'user-demo', name: 'Demo User' };
const project = (id: string, name: string): Project => ({
  id,
  name,
  originalFile: `${name}.wav`,
  duration: 30,
  bpm: 120,
  key: null,
  source: 'audio',
  activeEngine: 'fast',
  createdAt: '2026-11-24T00:00:00.000Z',
});

/** Media with one project per owner: anyone else's (or no) project is media's 404. */
class OwnedProjects implements ProjectLookup {
  constructor(private readonly owned: Record<string, Project[]>) {}
  getProject = async (ownerId: string, projectId: string) => {
    const found = this.owned[ownerId]?.find((p) => p.id === projectId);
    if (!found) throw new DomainError(404, 'Project not found');
    return found;
  };
}

/** The sessions service: keeps what it was asked to make and answers a session for it. */
class RecordingSessions implements CreateSessionCalls {
  readonly requests: CreateSessionRequest[] = [];
  create = async (request: CreateSessionRequest): Promise<Session> => {
    this.requests.push(request);
    return {
      id: 's1',
      name: request.body.name,
      projectId: request.body.projectId,
      projectName: request.projectName,
      hostUserId: request.userId,
      hostName: request.name,
      maxParticipants: request.body.maxParticipants,
      isActive: true,
      participantCount: 1,
      createdAt: '2026-11-24T00:00:00.000Z',
    };
  };
}

const body = { name: 'Friday jam', projectId: 'p-demo', hostUserId: demo.id, maxParticipants: 8 };

describe('CreateSessionUseCase', () => {
  const media = new OwnedProjects({ [demo.id]: [project('p-demo', 'Night Drive')], 'user-rival': [project('p-rival', 'Rival Song')] });

  it("makes the session with the caller as host (their name) and the project's name", async () => {
    const sessions = new RecordingSessions();
    const session = await new CreateSessionUseCase(sessions, media).execute(demo, body);
    expect(sessions.requests).toEqual([{ userId: demo.id, name: 'Demo User', projectName: 'Night Drive', body }]);
    expect(session).toMatchObject({ hostUserId: demo.id, hostName: 'Demo User', projectName: 'Night Drive', maxParticipants: 8 });
  });

  it('refuses a host other than the caller (403) before asking media or the sessions service', async () => {
    const sessions = new RecordingSessions();
    const lookups = jest.spyOn(media, 'getProject');
    await expect(new CreateSessionUseCase(sessions, media).execute(demo, { ...body, hostUserId: 'user-rival' })).rejects.toEqual(new DomainError(403, HOST_MUST_BE_CALLER));
    expect(lookups).not.toHaveBeenCalled();
    expect(sessions.requests).toEqual([]);
    lookups.mockRestore();
  });

  it("answers 404 'Project not found' for another user's project and for none, and makes no session", async () => {
    const sessions = new RecordingSessions();
    const useCase = new CreateSessionUseCase(sessions, media);
    await expect(useCase.execute(demo, { ...body, projectId: 'p-rival' })).rejects.toEqual(new DomainError(404, PROJECT_NOT_FOUND));
    await expect(useCase.execute(demo, { ...body, projectId: 'p-none' })).rejects.toEqual(new DomainError(404, PROJECT_NOT_FOUND));
    expect(sessions.requests).toEqual([]);
  });

  it("passes media's other failures on as they are", async () => {
    const down: ProjectLookup = { getProject: async () => Promise.reject(new Error('media did not answer')) };
    await expect(new CreateSessionUseCase(new RecordingSessions(), down).execute(demo, body)).rejects.toThrow('media did not answer');
  });
});
