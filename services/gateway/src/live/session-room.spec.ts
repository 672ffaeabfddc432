import { Logger } from '@nestjs/common';
import {
  CURSOR_MIN_INTERVAL_MS,
  PRESENCE_HEARTBEAT_MS,
  presenceKey,
  type ChatMessage,
  type LiveChangeRequest,
  type LiveEnterRequest,
  type LiveServerMessage,
  type LiveSessionState,
  type PostMessageRequest,
  type SessionEvent,
  type SessionRole,
} from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import type { LiveClient, LiveHandler } from './live.hub';
import type { SessionRoomBus } from './session-room-bus.adapter';
import { VIEWERS_CANNOT_PLAY } from '@stemdeck/proto';
import { CURSOR_JITTER_MS, JOIN_AS_YOURSELF, JOIN_FIRST, SessionRoom } from './session-room';

const SESSION = 'session-1';
const OTHER_SESSION = 'session-2';

/** Core NATS in one process: an event reaches every subscriber of its session, on any "replica". */
class MemoryBus implements SessionRoomBus {
  readonly listeners = new Map<string, Set<(event: SessionEvent) => void>>();
  readonly published: SessionEvent[] = [];
  readonly puts: string[] = [];
  subscribes = 0;
  failPuts = false;
  closed = false;
  async connect(): Promise<void> {}
  async close(): Promise<void> {
    this.closed = true;
  }
  publish(sessionId: string, event: SessionEvent): void {
    this.published.push(event);
    for (const listener of [...(this.listeners.get(sessionId) ?? [])]) listener(event);
  }
  async subscribe(sessionId: string, onEvent: (event: SessionEvent) => void): Promise<() => void> {
    this.subscribes++;
    const set = this.listeners.get(sessionId) ?? new Set();
    set.add(onEvent);
    this.listeners.set(sessionId, set);
    return () => set.delete(onEvent);
  }
  subscribers(sessionId: string): number {
    return this.listeners.get(sessionId)?.size ?? 0;
  }
  async putPresence(key: string): Promise<void> {
    if (this.failPuts) throw new Error('no responders');
    this.puts.push(key);
  }
}

/** The sessions service as the room sees it: roles by user, a state per session, calls recorded. */
class FakeSessions {
  readonly roles = new Map<string, SessionRole>();
  readonly entered: LiveEnterRequest[] = [];
  readonly exited: LiveEnterRequest[] = [];
  readonly changes: LiveChangeRequest[] = [];
  readonly posted: PostMessageRequest[] = [];
  /** Holds liveEnter until released (a slow service). */
  hold?: Promise<void>;
  /** Holds the next liveChange until released. */
  holdChange?: Promise<void>;
  constructor(private readonly bus: MemoryBus) {}

  async liveEnter(request: LiveEnterRequest): Promise<LiveSessionState> {
    await this.hold;
    const role = this.roles.get(request.userId);
    if (!role) throw new DomainError(404, 'Session not found');
    this.entered.push(request);
    return stateOf(request.sessionId, role);
  }
  async liveExit(request: LiveEnterRequest): Promise<Record<string, never>> {
    this.exited.push(request);
    return {};
  }
  async liveChange(request: LiveChangeRequest): Promise<Record<string, never>> {
    const hold = this.holdChange;
    this.holdChange = undefined;
    await hold;
    const role = this.roles.get(request.userId);
    if (role === 'viewer') throw new DomainError(403, VIEWERS_CANNOT_PLAY);
    this.changes.push(request);
    return {};
  }
  async postMessage(request: PostMessageRequest): Promise<ChatMessage> {
    this.posted.push(request);
    const message: ChatMessage = {
      id: `m${this.posted.length}`,
      sessionId: request.sessionId,
      userId: request.userId,
      name: request.name,
      message: request.message,
      type: 'text',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    this.bus.publish(request.sessionId, { origin: request.origin ?? null, message: { type: 'chat_message', sessionId: request.sessionId, message } });
    return message;
  }
}

function stateOf(sessionId: string, role: SessionRole): LiveSessionState {
  return {
    session: {
      id: sessionId,
      name: 'Jam',
      projectId: 'p1',
      projectName: 'Song',
      hostUserId: 'host',
      hostName: 'Host',
      maxParticipants: 8,
      isActive: true,
      participantCount: 2,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    role,
    participants: [],
    mix: {},
    transport: { playing: false, position: 0, at: 0 },
    chat: [],
  };
}

class FakeHub {
  readonly handlers = new Map<string, LiveHandler>();
  readonly closeListeners: Array<(client: LiveClient) => void> = [];
  on(type: string, handler: LiveHandler): void {
    this.handlers.set(type, handler);
  }
  onClose(listener: (client: LiveClient) => void): void {
    this.closeListeners.push(listener);
  }
  /** A message from `client`, as the hub dispatches it (its failure is what the hub would answer with). */
  send(client: LiveClient, message: Record<string, unknown>): Promise<void> {
    return Promise.resolve(this.handlers.get(message.type as string)!(client, message as never));
  }
  close(client: LiveClient): void {
    for (const listener of this.closeListeners) listener(client);
  }
}

type Socket = LiveClient & { sent: LiveServerMessage[]; of: (type: string) => LiveServerMessage[] };
function socket(userId: string, connectionId: string, firstName = userId): Socket {
  const sent: LiveServerMessage[] = [];
  return {
    user: { id: userId, email: null, firstName, lastName: null, profileImageUrl: null },
    connectionId,
    sent,
    send: (message) => sent.push(message),
    of: (type) => sent.filter((message) => message.type === type),
  };
}

/** Lets pending promise callbacks run (works under fake timers too). */
const settle = async () => {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
};

/** Two gateway replicas on one bus, one sessions service. */
function twoReplicas() {
  const bus = new MemoryBus();
  const sessions = new FakeSessions(bus);
  let now = 1_000_000;
  const clock = { now: () => now };
  const hubA = new FakeHub();
  const hubB = new FakeHub();
  const roomA = new SessionRoom(hubA as never, sessions, bus, clock);
  const roomB = new SessionRoom(hubB as never, sessions, bus, clock);
  sessions.roles.set('host', 'host');
  sessions.roles.set('guest', 'collaborator');
  return { bus, sessions, hubA, hubB, roomA, roomB, advance: (ms: number) => (now += ms), clock };
}

describe('SessionRoom', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('answers join_session with the state and the server time, one subscription per replica and session', async () => {
    const { bus, sessions, hubA, roomA } = twoReplicas();
    const host = socket('host', 'c1');
    const hostTab = socket('host', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubA.send(hostTab, { type: 'join_session', sessionId: SESSION, userId: 'host' });
    expect(host.of('session_joined')).toEqual([{ type: 'session_joined', state: stateOf(SESSION, 'host'), serverTime: 1_000_000 }]);
    expect(hostTab.of('session_joined')).toHaveLength(1);
    expect(sessions.entered).toEqual([
      { userId: 'host', sessionId: SESSION, connectionId: 'c1' },
      { userId: 'host', sessionId: SESSION, connectionId: 'c2' },
    ]);
    expect(bus.subscribes).toBe(1);
    expect(roomA.socketsIn(SESSION)).toBe(2);
    await hubA.send(host, { type: 'leave_session' });
    expect(bus.subscribers(SESSION)).toBe(1);
    hubA.close(hostTab);
    await settle();
    expect(bus.subscribers(SESSION)).toBe(0);
    expect(sessions.exited.map((request) => request.connectionId)).toEqual(['c1', 'c2']);
    expect(host.of('session_left')).toEqual([{ type: 'session_left', sessionId: SESSION, reason: 'left' }]);
  });

  it('refuses to join as someone else, or a session id that is not a plain id, before subscribing', async () => {
    const { bus, sessions, hubA } = twoReplicas();
    const guest = socket('guest', 'c1');
    await expect(hubA.send(guest, { type: 'join_session', sessionId: SESSION, userId: 'host' })).rejects.toThrow(JOIN_AS_YOURSELF);
    await expect(hubA.send(guest, { type: 'join_session', sessionId: '>' })).rejects.toThrow('Session not found');
    await expect(hubA.send(guest, { type: 'join_session', sessionId: 'a.*' })).rejects.toThrow('Session not found');
    expect(bus.subscribes).toBe(0);
    expect(sessions.entered).toHaveLength(0);
  });

  it("passes the service's refusal on and keeps no membership or subscription", async () => {
    const { bus, hubA } = twoReplicas();
    const stranger = socket('stranger', 'c1');
    await expect(hubA.send(stranger, { type: 'join_session', sessionId: SESSION })).rejects.toThrow('Session not found');
    expect(bus.subscribers(SESSION)).toBe(0);
    await expect(hubA.send(stranger, { type: 'chat_message', message: 'hi' })).rejects.toThrow(JOIN_FIRST);
  });

  it('sends pad hits across replicas to everyone in the session but the sender; viewers are refused', async () => {
    const { bus, sessions, hubA, hubB } = twoReplicas();
    const host = socket('host', 'c1');
    const guest = socket('guest', 'c2');
    const elsewhere = socket('guest', 'c3');
    sessions.roles.set('guest', 'collaborator');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    await hubB.send(elsewhere, { type: 'join_session', sessionId: OTHER_SESSION });

    await hubB.send(guest, { type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Snare', velocity: 100 } });
    expect(host.of('pad_triggered')).toEqual([{ type: 'pad_triggered', sessionId: SESSION, userId: 'guest', pad: 'Snare', velocity: 100 }]);
    expect(guest.of('pad_triggered')).toHaveLength(0);
    expect(elsewhere.of('pad_triggered')).toHaveLength(0);
    expect(bus.published.at(-1)!.origin).toBe('c2');

    bus.publish(SESSION, { origin: null, message: { type: 'role_changed', sessionId: SESSION, userId: 'guest', role: 'viewer' } });
    await expect(hubB.send(guest, { type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 90 } })).rejects.toThrow(VIEWERS_CANNOT_PLAY);
    expect(host.of('pad_triggered')).toHaveLength(1);
    bus.publish(SESSION, { origin: null, message: { type: 'role_changed', sessionId: SESSION, userId: 'guest', role: 'collaborator' } });
    await hubB.send(guest, { type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 90 } });
    expect(host.of('pad_triggered')).toHaveLength(2);
    expect(guest.of('role_changed')).toHaveLength(2);
  });

  it('stores chat through the service: the sender is answered directly, the others get the event', async () => {
    const { sessions, hubA, hubB } = twoReplicas();
    const host = socket('host', 'c1', 'Demo');
    const guest = socket('guest', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    await hubA.send(host, { type: 'chat_message', message: 'hello' });
    expect(sessions.posted).toEqual([{ userId: 'host', name: 'Demo', sessionId: SESSION, message: 'hello', origin: 'c1' }]);
    expect(host.of('chat_message')).toEqual([{ type: 'chat_message', sessionId: SESSION, message: expect.objectContaining({ id: 'm1', message: 'hello' }) }]);
    expect(guest.of('chat_message')).toEqual(host.of('chat_message'));
  });

  it('passes at most one cursor per socket every CURSOR_MIN_INTERVAL_MS on average, a little early ones included', async () => {
    const { bus, hubA, hubB, advance } = twoReplicas();
    const host = socket('host', 'c1', 'Demo');
    const guest = socket('guest', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    const move = (x: number) => hubA.send(host, { type: 'cursor_position', position: { x, y: 0.5 } });
    await move(0.1);
    advance(CURSOR_MIN_INTERVAL_MS - CURSOR_JITTER_MS - 1);
    await move(0.2); // too early: dropped
    advance(1);
    await move(0.3); // 70 ms: early for its slot at 100 ms, within the jitter: passed; the next slot is at 200 ms
    advance(CURSOR_MIN_INTERVAL_MS - CURSOR_JITTER_MS);
    await move(0.4); // 140 ms: 60 ms before its slot — the early one used the slack up: dropped
    advance(CURSOR_MIN_INTERVAL_MS - CURSOR_JITTER_MS);
    await move(0.5); // 210 ms: passed (so over time never more than one per 100 ms)
    expect(guest.of('cursor_update').map((update) => update.position.x)).toEqual([0.1, 0.3, 0.5]);
    expect(guest.of('cursor_update')[0]).toEqual({ type: 'cursor_update', sessionId: SESSION, userId: 'host', name: 'Demo', position: { x: 0.1, y: 0.5 } });
    expect(host.of('cursor_update')).toHaveLength(0);
    // Before joining, pointer moves are dropped without an answer.
    const idle = socket('guest', 'c3');
    await hubB.send(idle, { type: 'cursor_position', position: { x: 0.5, y: 0.5 } });
    expect(idle.sent).toHaveLength(0);
    expect(bus.published.filter((event) => event.message.type === 'cursor_update')).toHaveLength(3);
  });

  it('hands transport and stem changes to the service in the order sent, and passes its refusal back', async () => {
    const { sessions, hubA } = twoReplicas();
    const host = socket('host', 'c1');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    let release!: () => void;
    sessions.holdChange = new Promise((resolve) => (release = resolve));
    const first = hubA.send(host, { type: 'audio_event', eventType: 'stem_update', stemId: 's1', eventData: { property: 'volume', value: 0.2 } });
    const second = hubA.send(host, { type: 'audio_event', eventType: 'transport', eventData: { action: 'play', position: 12 } });
    await settle();
    expect(sessions.changes).toHaveLength(0);
    release();
    await Promise.all([first, second]);
    expect(sessions.changes.map((request) => request.change)).toEqual([
      { kind: 'stem_volume', stemId: 's1', value: 0.2 },
      { kind: 'transport', action: 'play', position: 12 },
    ]);
    expect(sessions.changes[0]).toMatchObject({ userId: 'host', sessionId: SESSION, connectionId: 'c1' });
    await hubA.send(host, { type: 'audio_event', eventType: 'participant_mute', eventData: { targetUserId: 'guest', muted: true } });
    expect(sessions.changes).toHaveLength(2);

    const viewer = socket('viewer', 'c2');
    sessions.roles.set('viewer', 'viewer');
    await hubA.send(viewer, { type: 'join_session', sessionId: SESSION });
    await expect(hubA.send(viewer, { type: 'audio_event', eventType: 'stem_update', stemId: 's1', eventData: { property: 'muted', value: true } })).rejects.toThrow(
      VIEWERS_CANNOT_PLAY,
    );
  });

  it('takes a removed participant out at once: session_left "removed", nothing more, no heartbeat', async () => {
    jest.useFakeTimers();
    const { bus, sessions, hubA, hubB, roomB } = twoReplicas();
    await roomB.onApplicationBootstrap();
    const host = socket('host', 'c1');
    const guest = socket('guest', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    bus.publish(SESSION, { origin: null, message: { type: 'participant_removed', sessionId: SESSION, userId: 'guest', byUserId: 'host' } });
    expect(guest.sent.at(-1)).toEqual({ type: 'session_left', sessionId: SESSION, reason: 'removed' });
    const seen = guest.sent.length;
    bus.publish(SESSION, { origin: 'c1', message: { type: 'pad_triggered', sessionId: SESSION, userId: 'host', pad: 'Kick', velocity: 1 } });
    expect(guest.sent).toHaveLength(seen);
    await settle();
    expect(bus.subscribers(SESSION)).toBe(1); // only replica A still listens
    await expect(hubB.send(guest, { type: 'chat_message', message: 'still here?' })).rejects.toThrow(JOIN_FIRST);
    await jest.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS);
    expect(bus.puts).toEqual([]);
    expect(sessions.exited).toEqual([]); // the service deleted the keys itself
    await roomB.onApplicationShutdown();
  });

  it('a participant who left on their own is told "left"; an ended session takes everyone out with "ended"', async () => {
    const { bus, sessions, hubA, hubB } = twoReplicas();
    const host = socket('host', 'c1');
    const guest = socket('guest', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    bus.publish(SESSION, { origin: null, message: { type: 'participant_removed', sessionId: SESSION, userId: 'guest', byUserId: 'guest' } });
    expect(guest.of('session_left')).toEqual([{ type: 'session_left', sessionId: SESSION, reason: 'left' }]);
    await hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    bus.publish(SESSION, { origin: null, message: { type: 'session_ended', sessionId: SESSION } });
    expect(host.of('session_left')).toEqual([{ type: 'session_left', sessionId: SESSION, reason: 'ended' }]);
    expect(guest.of('session_left').at(-1)).toEqual({ type: 'session_left', sessionId: SESSION, reason: 'ended' });
    await settle();
    // Removal needs no exit (the service deleted the keys); the end lets both sockets out.
    expect(sessions.exited.map((request) => request.connectionId)).toEqual(['c1', 'c2']);
    expect(bus.subscribers(SESSION)).toBe(0);
  });

  it('holds events that arrive while the socket is entering and sends them after session_joined', async () => {
    const { bus, sessions, hubA } = twoReplicas();
    const guest = socket('guest', 'c2');
    let release!: () => void;
    sessions.hold = new Promise((resolve) => (release = resolve));
    const joining = hubA.send(guest, { type: 'join_session', sessionId: SESSION });
    await settle();
    bus.publish(SESSION, { origin: 'c9', message: { type: 'pad_triggered', sessionId: SESSION, userId: 'host', pad: 'Crash', velocity: 5 } });
    expect(guest.sent).toHaveLength(0);
    release();
    await joining;
    expect(guest.sent.map((message) => message.type)).toEqual(['session_joined', 'pad_triggered']);
  });

  it('a socket that closes while entering is let out once the service has answered, and never told it joined', async () => {
    const { bus, sessions, hubA } = twoReplicas();
    const guest = socket('guest', 'c2');
    let release!: () => void;
    sessions.hold = new Promise((resolve) => (release = resolve));
    const joining = hubA.send(guest, { type: 'join_session', sessionId: SESSION });
    await settle();
    hubA.close(guest);
    expect(sessions.exited).toEqual([]); // not before its key exists
    release();
    await joining;
    expect(sessions.exited).toEqual([{ userId: 'guest', sessionId: SESSION, connectionId: 'c2' }]);
    expect(guest.of('session_joined')).toHaveLength(0);
    expect(bus.subscribers(SESSION)).toBe(0);
  });

  it('joining another session leaves the first', async () => {
    const { bus, sessions, hubA } = twoReplicas();
    const guest = socket('guest', 'c2');
    await hubA.send(guest, { type: 'join_session', sessionId: SESSION });
    await hubA.send(guest, { type: 'join_session', sessionId: OTHER_SESSION });
    expect(guest.sent.map((message) => message.type)).toEqual(['session_joined', 'session_left', 'session_joined']);
    expect(sessions.exited).toEqual([{ userId: 'guest', sessionId: SESSION, connectionId: 'c2' }]);
    expect(bus.subscribers(SESSION)).toBe(0);
    expect(bus.subscribers(OTHER_SESSION)).toBe(1);
    // The same session again is the state again, not a second membership.
    await hubA.send(guest, { type: 'join_session', sessionId: OTHER_SESSION });
    expect(guest.of('session_joined')).toHaveLength(3);
    expect(sessions.exited).toHaveLength(1);
  });

  it('two joins sent back to back from a socket in a session leave it in the last one only: no stray room, subscription or presence', async () => {
    const { bus, sessions, hubA, roomA } = twoReplicas();
    const host = socket('host', 'c1');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await Promise.allSettled([
      hubA.send(host, { type: 'join_session', sessionId: OTHER_SESSION }),
      hubA.send(host, { type: 'join_session', sessionId: 'session-3' }),
      hubA.send(host, { type: 'join_session', sessionId: 'session-4' }),
    ]);
    await settle();
    expect([SESSION, OTHER_SESSION, 'session-3', 'session-4'].map((id) => roomA.socketsIn(id))).toEqual([0, 0, 0, 1]);
    expect([SESSION, OTHER_SESSION, 'session-3'].map((id) => bus.subscribers(id))).toEqual([0, 0, 0]);
    expect(host.of('session_joined').map((joined) => (joined as { state: LiveSessionState }).state.session.id)).toEqual([SESSION, 'session-4']);
    // Whatever reached the service's entering was let out again.
    const stillIn = sessions.entered.filter((entry) => !sessions.exited.some((exit) => exit.sessionId === entry.sessionId && exit.connectionId === entry.connectionId));
    expect(stillIn.map((entry) => entry.sessionId)).toEqual(['session-4']);
    // A refused join (not a participant) leaves nothing behind either.
    const stranger = socket('stranger', 'c9');
    await expect(hubA.send(stranger, { type: 'join_session', sessionId: OTHER_SESSION })).rejects.toThrow('Session not found');
    expect(roomA.socketsIn(OTHER_SESSION)).toBe(0);
    expect(bus.subscribers(OTHER_SESSION)).toBe(0);
  });

  it('a socket that closes while switching sessions is in no room afterwards and its key is never put again', async () => {
    jest.useFakeTimers();
    const { bus, hubA, roomA } = twoReplicas();
    await roomA.onApplicationBootstrap();
    const host = socket('host', 'c1');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    const switching = hubA.send(host, { type: 'join_session', sessionId: OTHER_SESSION });
    hubA.close(host);
    await Promise.allSettled([switching]);
    await settle();
    expect([roomA.socketsIn(SESSION), roomA.socketsIn(OTHER_SESSION)]).toEqual([0, 0]);
    bus.puts.length = 0;
    jest.advanceTimersByTime(PRESENCE_HEARTBEAT_MS * 3);
    await settle();
    expect(bus.puts).toEqual([]);
    await roomA.onApplicationShutdown();
  });

  it('a collaborator made a viewer while their socket enters cannot play pads (the event beats the older entering state)', async () => {
    const { bus, sessions, hubA, hubB } = twoReplicas();
    const host = socket('host', 'c1');
    const guest = socket('guest', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    let release!: () => void;
    sessions.hold = new Promise((resolve) => (release = resolve));
    const entering = hubB.send(guest, { type: 'join_session', sessionId: SESSION });
    await settle();
    sessions.roles.set('guest', 'viewer');
    bus.publish(SESSION, { origin: null, message: { type: 'role_changed', sessionId: SESSION, userId: 'guest', role: 'viewer' } });
    // The service read its state before the change.
    sessions.roles.set('guest', 'collaborator');
    release();
    await entering;
    sessions.roles.set('guest', 'viewer');
    await expect(hubB.send(guest, { type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 127 } })).rejects.toThrow(VIEWERS_CANNOT_PLAY);
    expect(guest.of('role_changed')).toHaveLength(1);
  });

  it('keeps every joined socket present: a put per socket each PRESENCE_HEARTBEAT_MS, none after it left, a failure retried', async () => {
    jest.useFakeTimers();
    const { bus, hubA, roomA } = twoReplicas();
    await roomA.onApplicationBootstrap();
    const host = socket('host', 'c1');
    const guest = socket('guest', 'c2');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    await hubA.send(guest, { type: 'join_session', sessionId: SESSION });
    await jest.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS - 1);
    expect(bus.puts).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(bus.puts).toEqual([presenceKey(SESSION, 'host', 'c1'), presenceKey(SESSION, 'guest', 'c2')]);
    await hubA.send(guest, { type: 'leave_session' });
    bus.failPuts = true;
    await jest.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS);
    expect(Logger.prototype.warn).toHaveBeenCalledWith(expect.stringMatching(/presence heartbeat failed for 1 of 1/));
    bus.failPuts = false;
    await jest.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS * 3);
    expect(bus.puts.slice(2)).toEqual([presenceKey(SESSION, 'host', 'c1'), presenceKey(SESSION, 'host', 'c1'), presenceKey(SESSION, 'host', 'c1')]);
    await roomA.onApplicationShutdown();
  });

  it('a soak: heartbeats keep coming over many cycles while sockets come and go, and stop at shutdown', async () => {
    jest.useFakeTimers();
    const { bus, sessions, hubA, roomA } = twoReplicas();
    await roomA.onApplicationBootstrap();
    const host = socket('host', 'c0');
    await hubA.send(host, { type: 'join_session', sessionId: SESSION });
    for (let cycle = 1; cycle <= 50; cycle++) {
      const guest = socket('guest', `g${cycle}`);
      await hubA.send(guest, { type: 'join_session', sessionId: SESSION });
      await jest.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS);
      hubA.close(guest);
    }
    await settle();
    expect(bus.puts.filter((key) => key === presenceKey(SESSION, 'host', 'c0'))).toHaveLength(50);
    expect(bus.puts).toHaveLength(100);
    expect(sessions.exited).toHaveLength(50);
    expect(roomA.socketsIn(SESSION)).toBe(1);
    await roomA.onApplicationShutdown();
    // Shutdown lets this replica's sockets out at once, and the timer is gone.
    expect(sessions.exited.at(-1)).toEqual({ userId: 'host', sessionId: SESSION, connectionId: 'c0' });
    expect(bus.closed).toBe(true);
    const puts = bus.puts.length;
    await jest.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS * 5);
    expect(bus.puts).toHaveLength(puts);
  });

  it('does not keep the process alive', async () => {
    const { roomA } = twoReplicas();
    await roomA.onApplicationBootstrap();
    const timer = (roomA as unknown as { heartbeat: NodeJS.Timeout }).heartbeat;
    expect(timer.hasRef()).toBe(false);
    await roomA.onApplicationShutdown();
  });
});
