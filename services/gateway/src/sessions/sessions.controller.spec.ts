import type { ObjectStorageAdapter } from '@stemdeck/platform';
import type { ChatMessage, CreateSessionRequest, JoinSessionRequest, Participant, PostMessageRequest, Project, Session } from '@stemdeck/proto';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';
import type { SessionUser } from '../session/session-user';
import { participantNameOf } from './caller';
import { CreateSessionUseCase, HOST_MUST_BE_CALLER } from './create-session.usecase';
import { SessionStemsUseCase } from './session-stems.usecase';
import { JOIN_AS_CALLER, OWN_SESSIONS_ONLY, SessionsController, type SessionsRestCalls, WRITE_AS_CALLER } from './sessions.controller';

const demoUser: SessionUser = { id: 'user-demo', email: 'demo@example.com', firstName: 'Demo', lastName: 'User', profileImageUrl: null };
/** What the guard leaves on a signed-in request: the session's user. */
const signedIn = (user: SessionUser) => ({ session: { user } }) as unknown as Request;
const at = '2026-11-24T00:00:00.000Z';

const sessionOf = (request: CreateSessionRequest): Session => ({
  id: 's1',
  name: request.body.name,
  projectId: request.body.projectId,
  projectName: request.projectName,
  hostUserId: request.userId,
  hostName: request.name,
  maxParticipants: request.body.maxParticipants,
  isActive: true,
  participantCount: 1,
  createdAt: at,
});
const participantOf = (request: JoinSessionRequest): Participant => ({
  id: 'pt1',
  sessionId: request.sessionId,
  userId: request.userId,
  name: request.name,
  role: request.role,
  isOnline: false,
  lastActive: at,
});

/** The sessions service as the REST edge sees it: it records each call and answers something plausible. */
class RecordingSessions implements SessionsRestCalls {
  readonly calls: Array<[string, ...unknown[]]> = [];
  created: CreateSessionRequest[] = [];
  create = async (request: CreateSessionRequest) => (this.created.push(request), sessionOf(request));
  listForUser = async (userId: string) => (this.calls.push(['listForUser', userId]), []);
  access = async (userId: string, sessionId: string) => {
    this.calls.push(['access', userId, sessionId]);
    throw new DomainError(404, 'Session not found');
  };
  participants = async (userId: string, sessionId: string) => (this.calls.push(['participants', userId, sessionId]), []);
  join = async (request: JoinSessionRequest) => {
    this.calls.push(['join', request]);
    if (request.sessionId === 'full') throw new DomainError(409, 'Session is full');
    const participant = participantOf(request);
    return { session: sessionOf({ userId: 'user-host', name: 'Host', projectName: 'Song', body: { name: 'Jam', projectId: 'p', hostUserId: 'user-host', maxParticipants: 8 } }), participant };
  };
  setRole = async (userId: string, sessionId: string, targetUserId: string, role: 'collaborator' | 'viewer') => {
    this.calls.push(['setRole', userId, sessionId, targetUserId, role]);
    return participantOf({ userId: targetUserId, name: 'Rival', sessionId, role });
  };
  removeParticipant = async (userId: string, sessionId: string, targetUserId: string) => (this.calls.push(['removeParticipant', userId, sessionId, targetUserId]), {});
  listMessages = async (userId: string, sessionId: string) => (this.calls.push(['listMessages', userId, sessionId]), []);
  postMessage = async (request: PostMessageRequest): Promise<ChatMessage> => {
    this.calls.push(['postMessage', request]);
    return { id: 'm1', sessionId: request.sessionId, userId: request.userId, name: request.name, message: request.message, type: 'text', createdAt: at };
  };
}

const project: Project = { id: 'p-demo', name: 'Night Drive', originalFile: 'a.wav', duration: 30, bpm: null, key: null, source: 'audio', activeEngine: 'fast', createdAt: at };

function controller() {
  const sessions = new RecordingSessions();
  const media = {
    getProject: async (ownerId: string, projectId: string) => {
      if (ownerId !== demoUser.id || projectId !== project.id) throw new DomainError(404, 'Project not found');
      return project;
    },
    listStems: async () => [],
    stemAudio: async () => ({ objectKey: 'k', contentType: 'audio/flac', fileName: 'k.flac' }),
  };
  // The audio route streams from storage; these specs stop before it (the integration spec streams for real).
  const storage = {} as ObjectStorageAdapter;
  const edge = new SessionsController(sessions, new CreateSessionUseCase(sessions, media), new SessionStemsUseCase(sessions, media), storage);
  return { edge, sessions };
}

const req = signedIn(demoUser);
const createBody = { name: 'Friday jam', projectId: 'p-demo', hostUserId: demoUser.id };

/** The failure a call ends in: its status and words, as the exception filter answers them. */
async function refusal(run: () => unknown): Promise<{ status: number; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('SessionsController', () => {
  describe('POST /api/sessions', () => {
    it('makes the session for the caller, with 8 seats unless asked otherwise and the trimmed name', async () => {
      const { edge, sessions } = controller();
      const session = await edge.create(req, { ...createBody, name: '  Friday jam  ' });
      expect(sessions.created).toEqual([
        { userId: demoUser.id, name: 'Demo User', projectName: 'Night Drive', body: { ...createBody, maxParticipants: 8 } },
      ]);
      expect(session).toMatchObject({ name: 'Friday jam', maxParticipants: 8, hostName: 'Demo User' });
      await edge.create(req, { ...createBody, maxParticipants: 16 });
      await edge.create(req, { ...createBody, maxParticipants: 2 });
      expect(sessions.created.map((r) => r.body.maxParticipants)).toEqual([8, 16, 2]);
    });

    it("refuses a bad body with the product's words (400), naming the field", async () => {
      const { edge, sessions } = controller();
      const cases: Array<[unknown, string]> = [
        [{ ...createBody, name: '   ' }, 'name: Session name is required'],
        [{ projectId: 'p-demo', hostUserId: demoUser.id }, 'name: Session name is required'],
        [{ ...createBody, projectId: '' }, 'projectId: Project is required'],
        [{ name: 'Jam', hostUserId: demoUser.id }, 'projectId: Project is required'],
        [{ name: 'Jam', projectId: 'p-demo' }, 'hostUserId: Host user ID is required'],
        [{ ...createBody, maxParticipants: 1 }, 'maxParticipants: Maximum participants must be at least 2'],
        [{ ...createBody, maxParticipants: 17 }, 'maxParticipants: Maximum participants can be at most 16'],
        [{ ...createBody, maxParticipants: 2.5 }, 'maxParticipants: Maximum participants must be a whole number'],
        [{ ...createBody, maxParticipants: '8' }, 'maxParticipants: Maximum participants must be a number'],
        [{ ...createBody, name: 'x'.repeat(101) }, 'name: At most 100 characters'],
      ];
      for (const [body, message] of cases) expect(await refusal(() => edge.create(req, body))).toEqual({ status: 400, message });
      expect(await refusal(() => edge.create(req, undefined))).toEqual({
        status: 400,
        message: 'name: Session name is required; projectId: Project is required; hostUserId: Host user ID is required',
      });
      expect(sessions.created).toEqual([]);
    });

    it("refuses another host (403) and another user's project (404)", async () => {
      const { edge, sessions } = controller();
      expect(await refusal(() => edge.create(req, { ...createBody, hostUserId: 'user-rival' }))).toEqual({ status: 403, message: HOST_MUST_BE_CALLER });
      expect(await refusal(() => edge.create(req, { ...createBody, projectId: 'p-rival' }))).toEqual({ status: 404, message: 'Project not found' });
      expect(sessions.created).toEqual([]);
    });
  });

  it("lists the caller's own sessions only (403 for another user's list)", async () => {
    const { edge, sessions } = controller();
    await edge.listForUser(req, demoUser.id);
    expect(await refusal(() => edge.listForUser(req, 'user-rival'))).toEqual({ status: 403, message: OWN_SESSIONS_ONLY });
    expect(sessions.calls).toEqual([['listForUser', demoUser.id]]);
  });

  it('joins as the caller with their name (a viewer unless a role is asked), refuses joining as someone else, passes the service\'s 409 on', async () => {
    const { edge, sessions } = controller();
    const joined = await edge.join(req, 's1', { userId: demoUser.id });
    expect(joined.participant).toMatchObject({ userId: demoUser.id, name: 'Demo User', role: 'viewer' });
    await edge.join(req, 's1', { userId: demoUser.id, role: 'collaborator' });
    expect(await refusal(() => edge.join(req, 's1', { userId: 'user-rival' }))).toEqual({ status: 403, message: JOIN_AS_CALLER });
    expect(await refusal(() => edge.join(req, 's1', {}))).toEqual({ status: 400, message: 'userId: User ID is required' });
    expect(await refusal(() => edge.join(req, 's1', { userId: demoUser.id, role: 'owner' }))).toEqual({
      status: 400,
      message: 'role: Role must be host, collaborator or viewer',
    });
    expect(await refusal(() => edge.join(req, 'full', { userId: demoUser.id }))).toEqual({ status: 409, message: 'Session is full' });
    expect(sessions.calls.map(([, request]) => (request as JoinSessionRequest).role)).toEqual(['viewer', 'collaborator', 'viewer']);
  });

  it('posts trimmed chat as the caller; refuses empty, over-long and someone else\'s messages', async () => {
    const { edge, sessions } = controller();
    const posted = await edge.postMessage(req, 's1', { userId: demoUser.id, message: '  hello there  ' });
    expect(posted).toMatchObject({ message: 'hello there', name: 'Demo User', userId: demoUser.id, type: 'text' });
    await edge.postMessage(req, 's1', { userId: demoUser.id, message: 'y'.repeat(500) });
    expect(await refusal(() => edge.postMessage(req, 's1', { userId: demoUser.id, message: 'y'.repeat(501) }))).toEqual({
      status: 400,
      message: 'message: Messages can be at most 500 characters',
    });
    expect(await refusal(() => edge.postMessage(req, 's1', { userId: demoUser.id, message: ' \n ' }))).toEqual({ status: 400, message: 'message: Message is required' });
    expect(await refusal(() => edge.postMessage(req, 's1', { userId: demoUser.id }))).toEqual({ status: 400, message: 'message: Message is required' });
    expect(await refusal(() => edge.postMessage(req, 's1', { userId: 'user-rival', message: 'hi' }))).toEqual({ status: 403, message: WRITE_AS_CALLER });
    expect(sessions.calls).toEqual([
      ['postMessage', { userId: demoUser.id, name: 'Demo User', sessionId: 's1', message: 'hello there' }],
      ['postMessage', { userId: demoUser.id, name: 'Demo User', sessionId: 's1', message: 'y'.repeat(500) }],
    ]);
  });

  it('asks the service as the caller for participants, roles, removal, messages, the session and its stems', async () => {
    const { edge, sessions } = controller();
    await edge.participants(req, 's1');
    await edge.setRole(req, 's1', 'user-rival', { role: 'collaborator' });
    expect(await refusal(() => edge.setRole(req, 's1', 'user-rival', { role: 'host' }))).toEqual({ status: 400, message: 'role: Role must be collaborator or viewer' });
    await expect(edge.remove(req, 's1', 'user-rival')).resolves.toBeUndefined();
    await edge.messages(req, 's1');
    expect(await refusal(() => edge.get(req, 's1'))).toEqual({ status: 404, message: 'Session not found' });
    expect(await refusal(() => edge.stems(req, 's1'))).toEqual({ status: 404, message: 'Session not found' });
    expect(sessions.calls).toEqual([
      ['participants', demoUser.id, 's1'],
      ['setRole', demoUser.id, 's1', 'user-rival', 'collaborator'],
      ['removeParticipant', demoUser.id, 's1', 'user-rival'],
      ['listMessages', demoUser.id, 's1'],
      ['access', demoUser.id, 's1'],
      ['access', demoUser.id, 's1'],
    ]);
  });
});

describe('participantNameOf', () => {
  it('shows the first and last name, else the e-mail, else "User" and the last four of the id', () => {
    expect(participantNameOf(demoUser)).toBe('Demo User');
    expect(participantNameOf({ ...demoUser, lastName: null })).toBe('Demo');
    expect(participantNameOf({ ...demoUser, firstName: ' ', lastName: null })).toBe('demo@example.com');
    expect(participantNameOf({ id: 'f3c1-9a7e', firstName: null, lastName: null, email: null })).toBe('User 9a7e');
  });
});
