import { SessionsController } from './sessions.controller';
import { sessionsWorld, type SessionsWorld } from './testing/world';

/** The NATS edge: every request is checked against its proto schema before a use-case sees it. */
describe('SessionsController', () => {
  let w: SessionsWorld;
  let controller: SessionsController;
  const createPayload = (body: Record<string, unknown>) => ({ userId: 'host', name: 'Hana', projectName: 'Song One', body: { projectId: 'p1', hostUserId: 'host', ...body } });

  beforeEach(() => {
    w = sessionsWorld();
    w.projects.add('host', 'p1', 'Song One');
    controller = new SessionsController(w.create, w.join, w.remove, w.setRole, w.post, w.queries, w.enter, w.exit, w.change);
  });

  it('answers a valid create with the session, maxParticipants defaulting to 8', async () => {
    const reply = await controller.create(createPayload({ name: '  Friday jam ' }));
    expect(reply).toMatchObject({ ok: true, value: { name: 'Friday jam', maxParticipants: 8, participantCount: 1, isActive: true } });
  });

  it.each([
    [{ name: '   ' }, 'Session name is required'],
    [{ name: undefined }, 'Session name is required'],
    [{ name: 'Jam', projectId: '' }, 'Project is required'],
    [{ name: 'Jam', maxParticipants: 1 }, 'Maximum participants must be at least 2'],
    [{ name: 'Jam', maxParticipants: 17 }, 'Maximum participants can be at most 16'],
    [{ name: 'Jam', maxParticipants: 2.5 }, 'Maximum participants must be a whole number'],
  ])('refuses the create body %j with 400 naming %s', async (body, message) => {
    const reply = await controller.create(createPayload(body));
    expect(reply).toMatchObject({ ok: false, status: 400 });
    expect((reply as { message: string }).message).toContain(message);
    expect(w.sessions.sessions.size).toBe(0);
  });

  it('refuses malformed requests on every subject with 400 before anything is read or stored', async () => {
    const replies = await Promise.all([
      controller.listForUser({}),
      controller.participants({ userId: 'host' }),
      controller.join({ userId: 'host', name: 'Hana', sessionId: 's', role: 'boss' }),
      controller.remove({ userId: 'host', sessionId: 's' }),
      controller.role({ userId: 'host', sessionId: 's', targetUserId: 'guest', role: 'host' }),
      controller.messages({ sessionId: 's' }),
      controller.post({ userId: 'host', name: 'Hana', sessionId: 's', message: '   ' }),
      controller.post({ userId: 'host', name: 'Hana', sessionId: 's', message: 'x'.repeat(501) }),
      controller.access({ userId: '', sessionId: 's' }),
      controller.enter({ userId: 'host', sessionId: 's' }),
      controller.exit({ userId: 'host', connectionId: 'c' }),
      controller.change({ userId: 'host', sessionId: 's', connectionId: 'c', change: { kind: 'stem_volume', stemId: 'x', value: 2 } }),
      controller.change({ userId: 'host', sessionId: 's', connectionId: 'c', change: { kind: 'rewind' } }),
    ]);
    for (const reply of replies) expect(reply).toMatchObject({ ok: false, status: 400 });
    expect(w.chat.messages).toEqual([]);
  });

  it('passes a use-case\'s refusal on as {ok: false, status, message}', async () => {
    expect(await controller.join({ userId: 'guest', name: 'Gus', sessionId: 'no-such-session', role: 'viewer' })).toEqual({ ok: false, status: 404, message: 'Session not found' });
  });
});
