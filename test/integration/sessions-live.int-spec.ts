import { CURSOR_MIN_INTERVAL_MS, PRESENCE_TTL_MS, TRANSPORT_START_LEAD_MS, VIEWERS_CANNOT_PLAY, type LiveSessionState, type Session } from '@stemdeck/proto';
import { signInAt, type SignedInAgent } from '@stemdeck/test-client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { BASE_URL, BASE_URL_2 } from '../support/env';
import { makeClip, ownerIdOf, uploadSeparated, type SeparatedStem } from '../support/media';
import { createSession, joinSession, sessionMessages, sessionParticipants, sessionsApi, signInExtraUser } from '../support/sessions';

/**
 * Live sessions on /ws against the real stack, through both gateway replicas: demo's sockets are on the first,
 * rival's on the second, so everything one sees of the other crossed NATS (the session's event subject), and
 * presence lives in the NATS KV bucket.
 */
// Each test walks a whole session through both replicas; the project-level testTimeout in jest.config.js does not
// reach jest-circus (it reads the global one), so the time is set here.
jest.setTimeout(30_000);

const NOT_FOUND = 'Session not found';

type Message = Record<string, any> & { type: string };

/** A /ws socket on one replica: every message kept in order; `next` takes the first one matching, waiting if none yet. */
async function liveSocket(baseUrl: string, cookie: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin: baseUrl } });
  const queue: Message[] = [];
  const all: Message[] = [];
  const waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Message;
    all.push(message);
    const waiter = waiters.find((w) => w.match(message));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    } else queue.push(message);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = (type: string, match: (m: Message) => boolean = () => true, timeoutMs = 5000): Promise<Message> => {
    const matches = (m: Message) => m.type === type && match(m);
    const index = queue.findIndex(matches);
    if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = { match: matches, resolve };
      waiters.push(waiter);
      setTimeout(() => {
        const at = waiters.indexOf(waiter);
        if (at < 0) return;
        waiters.splice(at, 1);
        reject(new Error(`no ${type} within ${timeoutMs} ms; saw ${JSON.stringify(all.map((m) => m.type))}`));
      }, timeoutMs);
    });
  };
  const welcome = await next('welcome');
  const send = (message: object) => socket.send(JSON.stringify(message));
  return {
    socket,
    welcome,
    all,
    next,
    send,
    /** Messages of `type` that arrived, not yet taken. */
    pending: (type: string) => queue.filter((m) => m.type === type),
    /** Enters the session's live room and answers its state. */
    async join(sessionId: string): Promise<LiveSessionState & { serverTime: number }> {
      send({ type: 'join_session', sessionId });
      const joined = await next('session_joined');
      return { ...(joined.state as LiveSessionState), serverTime: joined.serverTime as number };
    },
    /** The error answered for a message of `forType`. */
    error: (forType: string) => next('error', (m) => m.for === forType),
    close: () => socket.close(),
  };
}
type LiveSocket = Awaited<ReturnType<typeof liveSocket>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two gateway replicas', () => {
  it('signs in at the second replica: Keycloak sends the user back to the replica they came from', async () => {
    const login = await fetch(`${BASE_URL_2}/api/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(new URL(login.headers.get('location')!).searchParams.get('redirect_uri')).toBe(`${BASE_URL_2}/api/callback`);
    const rival = await signInAt(BASE_URL_2, 'rival', 'rival');
    const me = await rival.fetch('/api/auth/user');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'rival@example.com' });
  });

  it('shares one session store: a sign-in at one replica is signed in at the other', async () => {
    const demo = await signInAt(BASE_URL, 'demo', 'demo');
    const there = await fetch(`${BASE_URL_2}/api/auth/user`, { headers: { cookie: demo.cookie } });
    expect(there.status).toBe(200);
    expect(await there.json()).toMatchObject({ email: 'demo@example.com' });
    const live = await liveSocket(BASE_URL_2, demo.cookie);
    expect(live.welcome).toMatchObject({ type: 'welcome', userId: expect.any(String) });
    live.close();
  });

  it('each replica accepts its own origin and the other one, and no foreign page', async () => {
    const demo = await signInAt(BASE_URL, 'demo', 'demo');
    for (const [target, origin] of [
      [BASE_URL, BASE_URL_2],
      [BASE_URL_2, BASE_URL],
    ] as const) {
      const socket = new WebSocket(`${target.replace(/^http/, 'ws')}/ws`, { headers: { cookie: demo.cookie, origin } });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.close();
    }
    const foreign = new WebSocket(`${BASE_URL_2.replace(/^http/, 'ws')}/ws`, { headers: { cookie: demo.cookie, origin: 'https://evil.example' } });
    const status = await new Promise((resolve) => foreign.once('unexpected-response', (_req, res) => resolve(res.statusCode)).once('open', () => resolve('open')));
    expect(status).toBe(403);
  });
});

describe('live sessions over /ws across two gateway replicas', () => {
  /** Signed in at the first replica. */
  let demo: SignedInAgent;
  /** Signed in at the second replica. */
  let rival: SignedInAgent;
  let demoId: string;
  let rivalId: string;
  let projectId: string;
  let stems: SeparatedStem[];
  const sockets: LiveSocket[] = [];

  /** A socket kept for closing after the test. */
  const open = async (baseUrl: string, agent: SignedInAgent) => {
    const live = await liveSocket(baseUrl, agent.cookie);
    sockets.push(live);
    return live;
  };

  /** A fresh session on demo's project with rival joined (REST on rival's replica) and both sockets in its live room. */
  async function jam(name: string) {
    const session = await createSession(demo, demoId, projectId, { name });
    await joinSession(rival, rivalId, session.id, 'collaborator');
    const demoLive = await open(BASE_URL, demo);
    const rivalLive = await open(BASE_URL_2, rival);
    const demoState = await demoLive.join(session.id);
    const rivalState = await rivalLive.join(session.id);
    await demoLive.next('user_joined', (m) => m.userId === rivalId);
    return { session, demoLive, rivalLive, demoState, rivalState };
  }

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signInAt(BASE_URL, 'demo', 'demo'), signInAt(BASE_URL_2, 'rival', 'rival')]);
    [demoId, rivalId] = await Promise.all([ownerIdOf(demo), ownerIdOf(rival)]);
    ({ projectId, stems } = await uploadSeparated(demo, makeClip('sessions-live.wav', 4), { fileName: 'Live Jam.wav' }));
  }, 120_000);

  afterEach(() => {
    for (const live of sockets.splice(0)) live.close();
  });

  it('both enter with the whole state; the host sees the guest come online on the other replica', async () => {
    const before = Date.now();
    const { session, demoState, rivalState, demoLive } = await jam('Enter');
    expect(demoState.session).toMatchObject({ id: session.id, projectId, hostUserId: demoId, isActive: true, participantCount: 2 });
    expect(demoState.role).toBe('host');
    expect(rivalState.role).toBe('collaborator');
    expect(rivalState.mix).toEqual({});
    expect(rivalState.transport).toMatchObject({ playing: false, position: 0 });
    expect(rivalState.chat).toEqual([]);
    expect(Object.fromEntries(rivalState.participants.map((p) => [p.userId, [p.role, p.isOnline]]))).toEqual({ [demoId]: ['host', true], [rivalId]: ['collaborator', true] });
    // serverTime is the server's clock when it answered (same machine here, so within the round trip).
    expect(rivalState.serverTime).toBeGreaterThanOrEqual(before - 50);
    expect(rivalState.serverTime).toBeLessThanOrEqual(Date.now() + 50);
    const joined = demoLive.all.find((m) => m.type === 'user_joined' && m.userId === rivalId)!;
    expect(joined).toMatchObject({ sessionId: session.id, role: 'collaborator', participant: { userId: rivalId, isOnline: true, name: 'Rival Tester' } });
    const participants = await sessionParticipants(demo, session.id);
    expect(participants.every((p) => p.isOnline)).toBe(true);
  });

  it('refuses join_session to someone not in the session, and as someone else', async () => {
    const { session } = await jam('Closed door');
    const third = await signInExtraUser('sessions-live-third', 'Third', 'Listener');
    const outsider = await open(BASE_URL_2, third);
    outsider.send({ type: 'join_session', sessionId: session.id });
    expect(await outsider.error('join_session')).toEqual({ type: 'error', code: 'failed', for: 'join_session', message: NOT_FOUND });
    const rivalLive = await open(BASE_URL_2, rival);
    rivalLive.send({ type: 'join_session', sessionId: session.id, userId: demoId });
    expect(await rivalLive.error('join_session')).toMatchObject({ code: 'failed', message: 'You can only join a session as yourself' });
    // Not in a session: what it sends is refused, and it receives nothing of the session.
    outsider.send({ type: 'chat_message', message: 'let me in' });
    expect(await outsider.error('chat_message')).toMatchObject({ code: 'failed', message: 'Join a session first' });
    expect(outsider.all.filter((m) => m.type === 'user_joined' || m.type === 'pad_triggered')).toEqual([]);
  });

  it("a guest's pad hit reaches the host on the other replica, and not the guest's own socket", async () => {
    const { session, demoLive, rivalLive } = await jam('Pads');
    const rivalOnFirst = await open(BASE_URL, rival); // rival's second tab, on demo's replica
    await rivalOnFirst.join(session.id);
    rivalLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Snare', velocity: 100 } });
    expect(await demoLive.next('pad_triggered')).toEqual({ type: 'pad_triggered', sessionId: session.id, userId: rivalId, pad: 'Snare', velocity: 100 });
    expect(await rivalOnFirst.next('pad_triggered')).toMatchObject({ userId: rivalId, pad: 'Snare' });
    demoLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Tom 2', velocity: 64 } });
    expect(await rivalLive.next('pad_triggered')).toMatchObject({ userId: demoId, pad: 'Tom 2', velocity: 64 });
    await sleep(300);
    expect(rivalLive.all.filter((m) => m.type === 'pad_triggered' && m.userId === rivalId)).toEqual([]);
    expect(demoLive.all.filter((m) => m.type === 'pad_triggered' && m.userId === demoId)).toEqual([]);
    // Validated at the edge: no such pad.
    rivalLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Cowbell', velocity: 100 } });
    expect(await rivalLive.next('error')).toMatchObject({ code: 'invalid', for: 'audio_event' });
  });

  it('pad hits cross replicas in order and none is lost (a burst of 100; the delay is printed)', async () => {
    const { demoLive, rivalLive } = await jam('Burst');
    const velocities = Array.from({ length: 100 }, (_, index) => index + 1);
    const sentAt = new Map<number, number>();
    const delays: number[] = [];
    const arrived: number[] = [];
    demoLive.socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message;
      if (message.type !== 'pad_triggered') return;
      arrived.push(message.velocity);
      delays.push(performance.now() - sentAt.get(message.velocity)!);
    });
    for (const velocity of velocities) {
      sentAt.set(velocity, performance.now());
      rivalLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Hi-Hat', velocity } });
      await sleep(5);
    }
    const until = Date.now() + 5000;
    while (arrived.length < velocities.length && Date.now() < until) await sleep(20);
    expect(arrived).toEqual(velocities);
    const sorted = [...delays].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length * 0.5)]!;
    const p99 = sorted[Math.ceil(sorted.length * 0.99) - 1]!;
    process.stdout.write(`[sessions-live] pad hit from replica 2 to replica 1: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (100 hits)\n`);
    // Loopback on a busy test machine: generous, but a hit that waited for a timer or a poll would miss it.
    expect(p50).toBeLessThan(100);
  });

  it('chat over /ws both ways: stored, each sender answered once, everyone else told', async () => {
    const { session, demoLive, rivalLive } = await jam('Chat');
    demoLive.send({ type: 'chat_message', message: '  hello from the first replica  ' });
    const mine = await demoLive.next('chat_message');
    expect(mine).toEqual({
      type: 'chat_message',
      sessionId: session.id,
      message: { id: expect.any(String), sessionId: session.id, userId: demoId, name: 'Demo User', message: 'hello from the first replica', type: 'text', createdAt: expect.any(String) },
    });
    expect((await rivalLive.next('chat_message')).message).toEqual(mine.message);
    rivalLive.send({ type: 'chat_message', message: 'and back from the second' });
    const theirs = await demoLive.next('chat_message');
    expect(theirs.message).toMatchObject({ userId: rivalId, name: 'Rival Tester', message: 'and back from the second' });
    expect((await rivalLive.next('chat_message')).message).toEqual(theirs.message);
    await sleep(300);
    expect(demoLive.pending('chat_message')).toEqual([]);
    expect(rivalLive.pending('chat_message')).toEqual([]);
    const stored = await sessionMessages(rival, session.id);
    expect(stored.map((m) => [m.userId, m.message])).toEqual([
      [demoId, 'hello from the first replica'],
      [rivalId, 'and back from the second'],
    ]);
    // A REST post reaches the sockets too.
    expect((await sessionsApi.post(demo, session.id, { userId: demoId, message: 'posted over REST' })).status).toBe(201);
    expect((await rivalLive.next('chat_message')).message).toMatchObject({ message: 'posted over REST' });
    expect((await demoLive.next('chat_message')).message).toMatchObject({ message: 'posted over REST' });
  });

  it(`passes cursors across replicas, at most one per socket every ${CURSOR_MIN_INTERVAL_MS} ms`, async () => {
    const { session, demoLive, rivalLive } = await jam('Cursors');
    demoLive.send({ type: 'cursor_position', position: { x: 0.1, y: 0.2 } });
    demoLive.send({ type: 'cursor_position', position: { x: 0.15, y: 0.25 } }); // within 100 ms of the first: dropped
    expect(await rivalLive.next('cursor_update')).toEqual({ type: 'cursor_update', sessionId: session.id, userId: demoId, name: 'Demo User', position: { x: 0.1, y: 0.2 } });
    await sleep(CURSOR_MIN_INTERVAL_MS + 50);
    demoLive.send({ type: 'cursor_position', position: { x: 0.9, y: 0.8 } });
    expect((await rivalLive.next('cursor_update')).position).toEqual({ x: 0.9, y: 0.8 });
    rivalLive.send({ type: 'cursor_position', position: { x: 0.5, y: 0.5 } });
    expect(await demoLive.next('cursor_update')).toMatchObject({ userId: rivalId, name: 'Rival Tester', position: { x: 0.5, y: 0.5 } });
    await sleep(300);
    expect(rivalLive.all.filter((m) => m.type === 'cursor_update' && m.userId === demoId).map((m) => m.position)).toEqual([
      { x: 0.1, y: 0.2 },
      { x: 0.9, y: 0.8 },
    ]);
    expect(demoLive.all.filter((m) => m.type === 'cursor_update' && m.userId === demoId)).toEqual([]);
  });

  it('transport play reaches both with the same start time in the future; a stem change is shared and stored for late joiners', async () => {
    const { session, demoLive, rivalLive } = await jam('Mix');
    const sentAt = Date.now();
    rivalLive.send({ type: 'audio_event', eventType: 'transport', eventData: { action: 'play', position: 1.5 } });
    const [forDemo, forRival] = await Promise.all([demoLive.next('audio_sync'), rivalLive.next('audio_sync')]);
    expect(forDemo).toEqual({ type: 'audio_sync', sessionId: session.id, userId: rivalId, transport: { playing: true, position: 1.5, at: expect.any(Number) } });
    expect(forRival).toEqual(forDemo);
    const receivedAt = Date.now();
    // `at` lies TRANSPORT_START_LEAD_MS after the server took the change: still ahead when both had it.
    expect(forDemo.transport.at).toBeGreaterThan(receivedAt);
    expect(forDemo.transport.at).toBeGreaterThanOrEqual(sentAt + TRANSPORT_START_LEAD_MS - 50);
    expect(forDemo.transport.at).toBeLessThanOrEqual(receivedAt + TRANSPORT_START_LEAD_MS + 50);

    const stem = stems[0]!;
    rivalLive.send({ type: 'audio_event', eventType: 'stem_update', stemId: stem.id, eventData: { property: 'volume', value: 0.25 } });
    const changed = await demoLive.next('stem_changed');
    expect(changed).toEqual({ type: 'stem_changed', sessionId: session.id, userId: rivalId, stemId: stem.id, property: 'volume', value: 0.25, mix: { volume: 0.25, muted: false } });
    expect(await rivalLive.next('stem_changed')).toEqual(changed);
    demoLive.send({ type: 'audio_event', eventType: 'stem_update', stemId: stem.id, eventData: { property: 'muted', value: true } });
    expect(await rivalLive.next('stem_changed')).toMatchObject({ userId: demoId, property: 'muted', value: true, mix: { volume: 0.25, muted: true } });
    // A stem of no session's project is refused in the service's words.
    rivalLive.send({ type: 'audio_event', eventType: 'stem_update', stemId: 'not-a-stem', eventData: { property: 'volume', value: 0.5 } });
    expect(await rivalLive.error('audio_event')).toMatchObject({ code: 'failed', message: "That stem is not part of this session's project" });

    // A late third socket (demo's second tab, on the other replica) catches up on the mix and the transport.
    const late = await open(BASE_URL_2, demo);
    const state = await late.join(session.id);
    expect(state.mix).toEqual({ [stem.id]: { volume: 0.25, muted: true } });
    expect(state.transport).toEqual(forDemo.transport);
  });

  it('a viewer hears and chats but cannot play pads or mix; made a collaborator again, they can', async () => {
    const { session, demoLive, rivalLive } = await jam('Roles');
    const patched = await sessionsApi.setRole(demo, session.id, rivalId, 'viewer');
    expect(patched.status).toBe(200);
    expect(await rivalLive.next('role_changed')).toEqual({ type: 'role_changed', sessionId: session.id, userId: rivalId, role: 'viewer' });
    await demoLive.next('role_changed');
    rivalLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 120 } });
    expect(await rivalLive.error('audio_event')).toEqual({ type: 'error', code: 'failed', for: 'audio_event', message: VIEWERS_CANNOT_PLAY });
    rivalLive.send({ type: 'audio_event', eventType: 'stem_update', stemId: stems[0]!.id, eventData: { property: 'volume', value: 0.1 } });
    expect(await rivalLive.error('audio_event')).toEqual({ type: 'error', code: 'failed', for: 'audio_event', message: VIEWERS_CANNOT_PLAY });
    rivalLive.send({ type: 'audio_event', eventType: 'transport', eventData: { action: 'play', position: 0 } });
    expect(await rivalLive.error('audio_event')).toMatchObject({ message: VIEWERS_CANNOT_PLAY });
    rivalLive.send({ type: 'chat_message', message: 'just listening' });
    expect((await demoLive.next('chat_message')).message).toMatchObject({ userId: rivalId, message: 'just listening' });
    await sleep(300);
    expect(demoLive.all.filter((m) => ['pad_triggered', 'stem_changed', 'audio_sync'].includes(m.type))).toEqual([]);

    expect((await sessionsApi.setRole(demo, session.id, rivalId, 'collaborator')).status).toBe(200);
    await rivalLive.next('role_changed', (m) => m.role === 'collaborator');
    rivalLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 120 } });
    expect(await demoLive.next('pad_triggered')).toMatchObject({ userId: rivalId, pad: 'Kick' });
  });

  it('the host removes the guest: their socket leaves the session at once and hears nothing more', async () => {
    const { session, demoLive, rivalLive } = await jam('Removal');
    const removedAt = Date.now();
    expect((await sessionsApi.remove(demo, session.id, rivalId)).status).toBe(204);
    expect(await rivalLive.next('session_left', () => true, 2000)).toEqual({ type: 'session_left', sessionId: session.id, reason: 'removed' });
    expect(Date.now() - removedAt).toBeLessThan(2000);
    expect(await demoLive.next('participant_removed')).toMatchObject({ userId: rivalId, byUserId: demoId });
    const seen = rivalLive.all.length;
    demoLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Crash', velocity: 127 } });
    demoLive.send({ type: 'chat_message', message: 'bye' });
    await demoLive.next('chat_message');
    rivalLive.send({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Ride', velocity: 127 } });
    expect(await rivalLive.error('audio_event')).toMatchObject({ message: 'Join a session first' });
    await sleep(500);
    expect(rivalLive.all.slice(seen).map((m) => m.type)).toEqual(['error']);
    expect(demoLive.all.filter((m) => m.type === 'pad_triggered')).toEqual([]);
    // Out of the session altogether: entering again is refused, as the session's details are.
    rivalLive.send({ type: 'join_session', sessionId: session.id });
    expect(await rivalLive.error('join_session')).toMatchObject({ message: NOT_FOUND });
    expect((await sessionsApi.get(rival, session.id)).status).toBe(404);
  });

  it('a socket that goes away without a word takes its user offline for the others', async () => {
    const { session, demoLive, rivalLive } = await jam('Dropped');
    const droppedAt = Date.now();
    rivalLive.socket.terminate();
    const left = await demoLive.next('user_left', (m) => m.userId === rivalId, PRESENCE_TTL_MS + 5000);
    expect(Date.now() - droppedAt).toBeLessThan(PRESENCE_TTL_MS + 5000);
    expect(left).toEqual({ type: 'user_left', sessionId: session.id, userId: rivalId, lastActive: expect.any(String) });
    const rivalThere = (await sessionParticipants(demo, session.id)).find((p) => p.userId === rivalId)!;
    expect(rivalThere).toMatchObject({ isOnline: false, role: 'collaborator' });
    expect(Date.parse(rivalThere.lastActive)).toBeGreaterThanOrEqual(droppedAt - 1000);
  }, 40_000);

  it(`a replica that stops answering: its users go offline for the others once their presence lapses (${PRESENCE_TTL_MS} ms)`, async () => {
    const { session, demoLive } = await jam('Frozen replica');
    const pid = Number(readFileSync(join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'gateway-2.pid'), 'utf8'));
    const frozenAt = Date.now();
    process.kill(pid, 'SIGSTOP'); // no heartbeat, no goodbye: as if its machine had gone
    try {
      const left = await demoLive.next('user_left', (m) => m.userId === rivalId, PRESENCE_TTL_MS + 10_000);
      const after = Date.now() - frozenAt;
      expect(after).toBeGreaterThan(PRESENCE_TTL_MS - 6000); // the last heartbeat may have been up to 5 s before
      expect(after).toBeLessThan(PRESENCE_TTL_MS + 10_000);
      expect(left).toMatchObject({ sessionId: session.id, userId: rivalId });
      expect((await sessionParticipants(demo, session.id)).find((p) => p.userId === rivalId)).toMatchObject({ isOnline: false });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // The replica carries on serving.
    const until = Date.now() + 10_000;
    while ((await fetch(`${BASE_URL_2}/readyz`).then((r) => r.status, () => 0)) !== 200) {
      if (Date.now() > until) throw new Error('the second replica did not come back');
      await sleep(200);
    }
  }, 60_000);

  it('a late joiner gets the latest chat, oldest first, with who is online', async () => {
    const session: Session = await createSession(demo, demoId, projectId, { name: 'Late' });
    await joinSession(rival, rivalId, session.id, 'viewer');
    const demoLive = await open(BASE_URL, demo);
    await demoLive.join(session.id);
    for (const text of ['one', 'two', 'three']) {
      demoLive.send({ type: 'chat_message', message: text });
      await demoLive.next('chat_message');
    }
    expect((await sessionsApi.post(rival, session.id, { userId: rivalId, message: 'four, before coming in' })).status).toBe(201);
    const late = await open(BASE_URL_2, rival);
    const state = await late.join(session.id);
    expect(state.role).toBe('viewer');
    expect(state.chat.map((m) => m.message)).toEqual(['one', 'two', 'three', 'four, before coming in']);
    expect(state.participants.find((p) => p.userId === demoId)).toMatchObject({ isOnline: true, role: 'host' });
  });

  it('the host leaving ends the session for everyone in it', async () => {
    const { session, demoLive, rivalLive } = await jam('The end');
    expect((await sessionsApi.remove(demo, session.id, demoId)).status).toBe(204);
    expect(await rivalLive.next('session_left')).toEqual({ type: 'session_left', sessionId: session.id, reason: 'ended' });
    expect(await demoLive.next('session_left')).toEqual({ type: 'session_left', sessionId: session.id, reason: 'ended' });
    rivalLive.send({ type: 'join_session', sessionId: session.id });
    expect(await rivalLive.error('join_session')).toMatchObject({ message: 'Session is not active' });
  });
});
