import { CHAT_RATE_LIMIT } from '@stemdeck/proto';
import { CHAT_LIST_LIMIT } from './session.queries';
import { CHAT_TOO_FAST, SESSION_NOT_ACTIVE, SESSION_NOT_FOUND } from './session-failures';
import { sessionsWorld, type SessionsWorld } from './testing/world';

describe('session chat', () => {
  let w: SessionsWorld;
  let sessionId: string;
  const say = (userId: string, message: string, origin?: string, session = sessionId) =>
    w.post.execute({ userId, name: `name of ${userId}`, sessionId: session, message, ...(origin ? { origin } : {}) });

  beforeEach(async () => {
    w = sessionsWorld();
    w.projects.add('host', 'p1', 'Song One');
    sessionId = (await w.create.execute({ userId: 'host', name: 'Hana', projectName: 'Song One', body: { name: 'Jam', projectId: 'p1', hostUserId: 'host', maxParticipants: 8 } })).id;
    await w.join.execute({ userId: 'guest', name: 'name of guest', sessionId, role: 'viewer' });
    w.events.clear();
  });

  it('stores a participant\'s message trimmed and announces it, skipping the socket it came from', async () => {
    const message = await say('guest', '  hello <b>there</b>  ', 'conn-7');
    expect(message).toEqual({
      id: expect.any(String),
      sessionId,
      userId: 'guest',
      name: 'name of guest',
      message: 'hello <b>there</b>',
      type: 'text',
      createdAt: new Date(w.clock.time).toISOString(),
    });
    expect(w.events.published).toEqual([{ sessionId, event: { origin: 'conn-7', message: { type: 'chat_message', sessionId, message } } }]);
    await say('host', 'from the REST edge');
    expect(w.events.published[1].event.origin).toBeNull();
  });

  it('refuses outsiders (404) and ended sessions (409)', async () => {
    await expect(say('stranger', 'hi')).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
    await w.remove.execute({ userId: 'host', sessionId, targetUserId: 'host' });
    await expect(say('guest', 'hi')).rejects.toMatchObject({ status: 409, message: SESSION_NOT_ACTIVE });
    expect(w.chat.messages).toEqual([]);
  });

  it(`allows ${CHAT_RATE_LIMIT.messages} messages per user in ${CHAT_RATE_LIMIT.windowMs} ms across sessions, then 429 until the window has passed`, async () => {
    const other = (await w.create.execute({ userId: 'host', name: 'Hana', projectName: 'Song One', body: { name: 'Other', projectId: 'p1', hostUserId: 'host', maxParticipants: 8 } })).id;
    await w.join.execute({ userId: 'guest', name: 'name of guest', sessionId: other, role: 'viewer' });
    for (let i = 0; i < CHAT_RATE_LIMIT.messages - 1; i++) {
      await say('guest', `message ${i}`);
      w.clock.advance(100);
    }
    await say('guest', 'last allowed, in the other session', undefined, other);
    await expect(say('guest', 'one too many')).rejects.toMatchObject({ status: 429, message: CHAT_TOO_FAST });
    await expect(say('guest', 'one too many elsewhere', undefined, other)).rejects.toMatchObject({ status: 429, message: CHAT_TOO_FAST });
    expect(w.chat.messages).toHaveLength(CHAT_RATE_LIMIT.messages);
    // Another person is not slowed by the guest.
    await say('host', 'the host still talks');
    // The first message leaves the window: one more is allowed, then it is full again.
    w.clock.advance(CHAT_RATE_LIMIT.windowMs - (CHAT_RATE_LIMIT.messages - 1) * 100);
    await say('guest', 'allowed again');
    await expect(say('guest', 'too fast again')).rejects.toMatchObject({ status: 429 });
  });

  it(`lists the newest ${CHAT_LIST_LIMIT} messages oldest first, and keeps messages sent in one millisecond in order`, async () => {
    for (let i = 0; i < CHAT_LIST_LIMIT + 5; i++) {
      await say(i % 2 ? 'guest' : 'host', `m${i}`);
      if (i % 10 === 9) w.clock.advance(CHAT_RATE_LIMIT.windowMs); // stay under the rate limit
    }
    const listed = await w.queries.messages('guest', sessionId);
    expect(listed).toHaveLength(CHAT_LIST_LIMIT);
    expect(listed[0].message).toBe('m5');
    expect(listed.at(-1)!.message).toBe(`m${CHAT_LIST_LIMIT + 4}`);
    const times = listed.map((m) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
  });
});
