import type { CreateSessionBody } from '@stemdeck/proto';
import {
  HOST_ROLE_FIXED,
  NOT_YOUR_SESSION,
  ONLY_CREATOR_IS_HOST,
  ONLY_HOST_CHANGES_ROLES,
  ONLY_HOST_REMOVES,
  PARTICIPANT_NOT_FOUND,
  PROJECT_NOT_FOUND,
  SESSION_FULL,
  SESSION_NOT_ACTIVE,
  SESSION_NOT_FOUND,
} from './session-failures';
import { sessionsWorld, type SessionsWorld } from './testing/world';

const body = (overrides: Partial<CreateSessionBody> = {}): CreateSessionBody => ({ name: 'Friday jam', projectId: 'p1', hostUserId: 'host', maxParticipants: 8, ...overrides });

describe('sessions', () => {
  let w: SessionsWorld;
  const open = async (overrides: Partial<CreateSessionBody> = {}) => w.create.execute({ userId: 'host', name: 'Hana', projectName: 'ignored', body: body(overrides) });
  const join = (sessionId: string, userId: string, role: 'host' | 'collaborator' | 'viewer' = 'collaborator') =>
    w.join.execute({ userId, name: `name of ${userId}`, sessionId, role });

  beforeEach(() => {
    w = sessionsWorld();
    w.projects.add('host', 'p1', 'Song One', ['stem-a']).add('rival', 'p9', 'Rival song');
  });

  describe('create', () => {
    it('makes an active session on the host\'s project with the host as its one participant', async () => {
      const session = await open({ maxParticipants: 4 });
      expect(session).toEqual({
        id: 'id-1',
        name: 'Friday jam',
        projectId: 'p1',
        projectName: 'Song One',
        hostUserId: 'host',
        hostName: 'Hana',
        maxParticipants: 4,
        isActive: true,
        participantCount: 1,
        createdAt: new Date(w.clock.time).toISOString(),
      });
      expect(await w.queries.participants('host', session.id)).toEqual([
        { id: 'id-2', sessionId: session.id, userId: 'host', name: 'Hana', role: 'host', isOnline: false, lastActive: new Date(w.clock.time).toISOString() },
      ]);
      expect(w.sessions.sessions.get(session.id)).toMatchObject({ mix: {}, transport: { playing: false, position: 0 } });
    });

    it('refuses another user\'s project (404) and a host id that is not the caller (403), storing nothing', async () => {
      await expect(open({ projectId: 'p9' })).rejects.toMatchObject({ status: 404, message: PROJECT_NOT_FOUND });
      await expect(open({ hostUserId: 'someone-else' })).rejects.toMatchObject({ status: 403, message: NOT_YOUR_SESSION });
      expect(w.sessions.sessions.size).toBe(0);
    });
  });

  describe('list', () => {
    it('lists the sessions a user hosts or joined, newest first, with participant counts; nobody else\'s', async () => {
      const first = await open({ name: 'First' });
      w.clock.advance(1000);
      const second = await open({ name: 'Second' });
      await join(first.id, 'guest');
      expect((await w.queries.listForUser('host')).map((s) => [s.name, s.participantCount])).toEqual([
        ['Second', 1],
        ['First', 2],
      ]);
      expect((await w.queries.listForUser('guest')).map((s) => s.id)).toEqual([first.id]);
      expect(await w.queries.listForUser('stranger')).toEqual([]);
      expect(second.participantCount).toBe(1);
    });
  });

  describe('join', () => {
    it('adds the caller with the asked role and announces them', async () => {
      const session = await open();
      const joined = await join(session.id, 'guest', 'viewer');
      expect(joined.session.participantCount).toBe(2);
      expect(joined.participant).toMatchObject({ userId: 'guest', name: 'name of guest', role: 'viewer', isOnline: false });
      expect(w.events.ofType('user_joined')).toEqual([{ type: 'user_joined', sessionId: session.id, userId: 'guest', role: 'viewer', participant: joined.participant }]);
    });

    it('answers 404 for an unknown session and 409 for an ended one', async () => {
      await expect(join('no-such-session', 'guest')).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
      const session = await open();
      await w.remove.execute({ userId: 'host', sessionId: session.id, targetUserId: 'host' });
      await expect(join(session.id, 'guest')).rejects.toMatchObject({ status: 409, message: SESSION_NOT_ACTIVE });
    });

    it('is full at maxParticipants (the host counts), but a rejoin is never full and keeps the stored role', async () => {
      const session = await open({ maxParticipants: 2 });
      await join(session.id, 'guest', 'viewer');
      await expect(join(session.id, 'third')).rejects.toMatchObject({ status: 409, message: SESSION_FULL });
      w.events.clear();
      const again = await join(session.id, 'guest', 'collaborator');
      expect(again.participant.role).toBe('viewer');
      expect(again.session.participantCount).toBe(2);
      expect(w.events.published).toEqual([]);
    });

    it('gives the last seat to one of two people joining at once; the other hears it is full', async () => {
      const session = await open({ maxParticipants: 2 });
      const results = await Promise.allSettled([join(session.id, 'first'), join(session.id, 'second')]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { status: 409, message: SESSION_FULL } });
      expect((await w.sessions.listParticipants(session.id)).length).toBe(2);
    });

    it('refuses the host role to anyone but the creator, who gets their host record back', async () => {
      const session = await open();
      await expect(join(session.id, 'guest', 'host')).rejects.toMatchObject({ status: 403, message: ONLY_CREATOR_IS_HOST });
      const host = await join(session.id, 'host', 'host');
      expect(host.participant).toMatchObject({ userId: 'host', role: 'host', name: 'Hana' });
      expect(host.session.participantCount).toBe(1);
    });
  });

  describe('reads are for participants only', () => {
    it('answers an outsider 404 for participants, messages and access, as for an unknown id', async () => {
      const session = await open();
      for (const read of [
        () => w.queries.participants('stranger', session.id),
        () => w.queries.messages('stranger', session.id),
        () => w.queries.access('stranger', session.id),
        () => w.queries.access('host', 'no-such-session'),
      ]) {
        await expect(read()).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
      }
      await join(session.id, 'guest', 'viewer');
      expect(await w.queries.access('guest', session.id)).toMatchObject({
        session: { id: session.id, participantCount: 2 },
        participant: { userId: 'guest', role: 'viewer' },
      });
    });
  });

  describe('remove and leave', () => {
    it('lets a participant leave: their record and presence keys go, and everyone hears participant_removed by themselves', async () => {
      const session = await open();
      await join(session.id, 'guest');
      await w.enter.execute({ userId: 'guest', sessionId: session.id, connectionId: 'c1' });
      w.events.clear();
      expect(await w.remove.execute({ userId: 'guest', sessionId: session.id, targetUserId: 'guest' })).toEqual({});
      expect(await w.sessions.findParticipant(session.id, 'guest')).toBeNull();
      expect(w.board.liveKeys()).toEqual([]);
      expect(w.events.ofType('participant_removed')).toEqual([{ type: 'participant_removed', sessionId: session.id, userId: 'guest', byUserId: 'guest' }]);
      // They are out: reads are 404 now, and the session stays active for the others.
      await expect(w.queries.participants('guest', session.id)).rejects.toMatchObject({ status: 404 });
      expect(w.sessions.sessions.get(session.id)!.isActive).toBe(true);
    });

    it('lets the host remove someone (byUserId = host); nobody else may remove another person', async () => {
      const session = await open();
      await join(session.id, 'guest');
      await join(session.id, 'other');
      await expect(w.remove.execute({ userId: 'other', sessionId: session.id, targetUserId: 'guest' })).rejects.toMatchObject({ status: 403, message: ONLY_HOST_REMOVES });
      await expect(w.remove.execute({ userId: 'other', sessionId: session.id, targetUserId: 'host' })).rejects.toMatchObject({ status: 403, message: ONLY_HOST_REMOVES });
      expect(w.events.ofType('participant_removed')).toEqual([]);
      await w.remove.execute({ userId: 'host', sessionId: session.id, targetUserId: 'guest' });
      expect(w.events.ofType('participant_removed')).toEqual([{ type: 'participant_removed', sessionId: session.id, userId: 'guest', byUserId: 'host' }]);
      await expect(w.remove.execute({ userId: 'host', sessionId: session.id, targetUserId: 'guest' })).rejects.toMatchObject({ status: 404, message: PARTICIPANT_NOT_FOUND });
      await expect(w.remove.execute({ userId: 'stranger', sessionId: session.id, targetUserId: 'other' })).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
    });

    it('ends the session when the host leaves: inactive, session_ended once, participants kept on record', async () => {
      const session = await open();
      await join(session.id, 'guest');
      w.events.clear();
      await w.remove.execute({ userId: 'host', sessionId: session.id, targetUserId: 'host' });
      await w.remove.execute({ userId: 'host', sessionId: session.id, targetUserId: 'host' });
      expect(w.events.published.map(({ event }) => event.message)).toEqual([{ type: 'session_ended', sessionId: session.id }]);
      const [listed] = await w.queries.listForUser('guest');
      expect(listed).toMatchObject({ id: session.id, isActive: false, participantCount: 2 });
    });
  });

  describe('roles', () => {
    it('lets the host make a participant a viewer or collaborator, announced as role_changed', async () => {
      const session = await open();
      await join(session.id, 'guest', 'collaborator');
      const changed = await w.setRole.execute({ userId: 'host', sessionId: session.id, targetUserId: 'guest', role: 'viewer' });
      expect(changed).toMatchObject({ userId: 'guest', role: 'viewer' });
      expect(w.events.ofType('role_changed')).toEqual([{ type: 'role_changed', sessionId: session.id, userId: 'guest', role: 'viewer' }]);
      expect((await w.sessions.findParticipant(session.id, 'guest'))!.role).toBe('viewer');
    });

    it('refuses everyone but the host (403), the host\'s own role (403) and someone not in the session (404)', async () => {
      const session = await open();
      await join(session.id, 'guest', 'collaborator');
      await join(session.id, 'other', 'viewer');
      await expect(w.setRole.execute({ userId: 'guest', sessionId: session.id, targetUserId: 'other', role: 'collaborator' })).rejects.toMatchObject({
        status: 403,
        message: ONLY_HOST_CHANGES_ROLES,
      });
      await expect(w.setRole.execute({ userId: 'host', sessionId: session.id, targetUserId: 'host', role: 'viewer' })).rejects.toMatchObject({ status: 403, message: HOST_ROLE_FIXED });
      await expect(w.setRole.execute({ userId: 'host', sessionId: session.id, targetUserId: 'stranger', role: 'viewer' })).rejects.toMatchObject({
        status: 404,
        message: PARTICIPANT_NOT_FOUND,
      });
      expect(w.events.ofType('role_changed')).toEqual([]);
    });
  });

  describe('a deleted project', () => {
    it('ends the host\'s active sessions on that project, and only those', async () => {
      const onP1 = await open();
      const alsoOnP1 = await open();
      w.projects.add('host', 'p2', 'Song Two');
      const onP2 = await open({ projectId: 'p2' });
      expect(await w.endProject.execute('rival', 'p1')).toBe(0);
      expect(await w.endProject.execute('host', 'p1')).toBe(2);
      expect(w.events.ofType('session_ended').map((e) => e.sessionId).sort()).toEqual([onP1.id, alsoOnP1.id].sort());
      expect(w.sessions.sessions.get(onP2.id)!.isActive).toBe(true);
      await expect(join(onP1.id, 'guest')).rejects.toMatchObject({ status: 409, message: SESSION_NOT_ACTIVE });
    });
  });
});
