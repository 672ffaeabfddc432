import type { HttpAdapterHost } from '@nestjs/core';
import { LIVE_PROTOCOL_VERSION, type LiveServerMessage } from '@stemdeck/proto';
import type { RequestHandler } from 'express';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { Clock, IdGenerator } from '@stemdeck/platform';
import type { GatewayConfig } from '../config';
import { LiveHub } from './live.hub';

const ORIGIN = 'https://stemdeck.test';

/** A browser's socket after the handshake: records what the hub sends and whether it was pinged or dropped. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  readonly sent: LiveServerMessage[] = [];
  pings = 0;
  terminated = false;

  /** A socket that answers pings, as a live browser does; a silent one never does. */
  constructor(private readonly answersPings = true) {
    super();
  }

  send(frame: string): void {
    this.sent.push(JSON.parse(frame) as LiveServerMessage);
  }

  ping(): void {
    this.pings++;
    if (this.answersPings) queueMicrotask(() => this.emit('pong'));
  }

  terminate(): void {
    this.terminated = true;
    this.shut();
  }

  close(): void {
    this.shut();
  }

  /** A text frame from the browser. */
  receive(text: string, isBinary = false): void {
    this.emit('message', Buffer.from(text), isBinary);
  }

  private shut(): void {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.emit('close');
  }
}

/** The raw connection a refused upgrade is answered on. */
class FakeDuplex extends EventEmitter {
  written = '';
  destroyed = false;
  write(text: string): boolean {
    this.written += text;
    return true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The hub's time: a fixed instant unless a test moves it. */
const SERVER_TIME = Date.parse('2025-06-01T12:00:00.000Z');
class FixedClock implements Clock {
  time = SERVER_TIME;
  now(): number {
    return this.time;
  }
}

/** Connection ids `conn-1`, `conn-2`, … in the order sockets are accepted. */
class SequentialIds implements IdGenerator {
  private issued = 0;
  randomUUID(): string {
    return `conn-${++this.issued}`;
  }
}

/**
 * The hub with everything around it faked: an HTTP server that only emits `upgrade`, a session middleware
 * that signs in whoever the cookie names, and the WebSocket handshake replaced by handing over a fake
 * socket (tracked by the server as the real handshake does), so no port is opened.
 */
function setUp(limits: Partial<GatewayConfig> = {}) {
  const server = new EventEmitter();
  const sessionMiddleware: RequestHandler = (req, _res, next) => {
    const name = /user=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
    (req as unknown as { session: object }).session = name ? { user: { id: name, email: null, firstName: null, lastName: null, profileImageUrl: null } } : {};
    next();
  };
  const config = { LIVE_HEARTBEAT_SECONDS: 1, allowedOrigins: new Set([ORIGIN]), RATE_LIMIT_WS_BURST: 200, RATE_LIMIT_WS_MESSAGES_PER_SECOND: 50, ...limits } as GatewayConfig;
  const clock = new FixedClock();
  const hub = new LiveHub({ httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost, sessionMiddleware, config, clock, new SequentialIds());
  let next: FakeSocket | undefined;
  jest.spyOn(WebSocketServer.prototype, 'handleUpgrade').mockImplementation(function (this: WebSocketServer, _req, _socket, _head, accept) {
    const ws = next ?? new FakeSocket();
    next = undefined;
    this.clients.add(ws as unknown as WebSocket);
    ws.on('close', () => this.clients.delete(ws as unknown as WebSocket));
    accept(ws as unknown as WebSocket, _req);
  });
  hub.onApplicationBootstrap();

  /** Opens /ws as `user` (or signed out) from our origin; resolves with the socket, or the refusal written. */
  async function connect(user: string | null, options: { socket?: FakeSocket; url?: string; origin?: string } = {}) {
    const socket = options.socket ?? new FakeSocket();
    next = socket;
    const duplex = new FakeDuplex();
    const req = { url: options.url ?? '/ws', headers: { origin: options.origin ?? ORIGIN, ...(user ? { cookie: `user=${user}` } : {}) } } as unknown as IncomingMessage;
    server.emit('upgrade', req, duplex, Buffer.alloc(0));
    await settle();
    return { socket, refusal: duplex.written.split('\r\n')[0] ?? '', duplex };
  }
  return { hub, clock, connect };
}

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('LiveHub', () => {
  it('welcomes a signed-in socket with its user, its own connection id and the protocol version', async () => {
    const { hub, connect } = setUp();
    const { socket } = await connect('ana');
    expect(socket.sent).toEqual([{ type: 'welcome', userId: 'ana', connectionId: 'conn-1', protocol: LIVE_PROTOCOL_VERSION }]);
    hub.onApplicationShutdown();
  });

  it("takes each socket's connection id from the id generator and a pong's serverTime from the clock", async () => {
    const { hub, clock, connect } = setUp();
    const tabA = (await connect('ana')).socket;
    const tabB = (await connect('ana')).socket;
    expect([tabA.sent[0], tabB.sent[0]]).toMatchObject([{ type: 'welcome', connectionId: 'conn-1' }, { type: 'welcome', connectionId: 'conn-2' }]);
    tabA.receive('{"type":"ping","id":"p-1"}');
    await settle();
    clock.time += 1500;
    tabA.receive('{"type":"ping"}');
    await settle();
    expect(tabA.sent.slice(1)).toEqual([
      { type: 'pong', id: 'p-1', serverTime: SERVER_TIME },
      { type: 'pong', id: null, serverTime: SERVER_TIME + 1500 },
    ]);
    hub.onApplicationShutdown();
  });

  it('refuses the upgrade when not signed in (401), from a foreign origin (403) or on another path (404)', async () => {
    const { hub, connect } = setUp();
    const signedOut = await connect(null);
    expect(signedOut.refusal).toBe('HTTP/1.1 401 Unauthorized');
    expect(signedOut.duplex.destroyed).toBe(true);
    expect(signedOut.socket.sent).toEqual([]);
    expect((await connect('ana', { origin: 'https://evil.test' })).refusal).toBe('HTTP/1.1 403 Forbidden');
    expect((await connect('ana', { url: '/other' })).refusal).toBe('HTTP/1.1 404 Not Found');
    expect(hub.sendToUser('ana', { type: 'project_deleted', projectId: 'p1' })).toBe(0);
    hub.onApplicationShutdown();
  });

  it("sends to every open socket of the user but the origin, and to no one else's", async () => {
    const { hub, connect } = setUp();
    const tabA = (await connect('ana')).socket;
    const tabB = (await connect('ana')).socket;
    const tabC = (await connect('ana')).socket;
    const other = (await connect('ben')).socket;
    const originOf = (socket: FakeSocket) => (socket.sent[0] as Extract<LiveServerMessage, { type: 'welcome' }>).connectionId;
    expect(new Set([tabA, tabB, tabC].map(originOf)).size).toBe(3);

    const message: LiveServerMessage = { type: 'project_deleted', projectId: 'p1' };
    expect(hub.sendToUser('ana', message, originOf(tabA))).toBe(2);
    expect(tabA.sent.slice(1)).toEqual([]);
    expect(tabB.sent.slice(1)).toEqual([message]);
    expect(tabC.sent.slice(1)).toEqual([message]);
    expect(other.sent.slice(1)).toEqual([]);

    // A closed tab is forgotten; with no origin every remaining tab hears it.
    tabC.close();
    expect(hub.sendToUser('ana', message)).toBe(2);
    expect(tabC.sent.slice(1)).toEqual([message]);
    hub.onApplicationShutdown();
  });

  it("drops a user's messages over the rate with an error on the socket, keeps it open, and leaves other users alone", async () => {
    const { hub, clock, connect } = setUp({ RATE_LIMIT_WS_BURST: 5, RATE_LIMIT_WS_MESSAGES_PER_SECOND: 2 });
    const tabA = (await connect('ana')).socket;
    const tabB = (await connect('ana')).socket;
    const other = (await connect('ben')).socket;
    for (let i = 1; i <= 4; i++) tabA.receive(`{"type":"ping","id":"a${i}"}`);
    for (let i = 1; i <= 3; i++) tabB.receive(`{"type":"ping","id":"b${i}"}`);
    for (let i = 1; i <= 5; i++) other.receive(`{"type":"ping","id":"o${i}"}`);
    await settle();
    // Both of ana's tabs draw on one allowance: 5 at once, the 6th and 7th dropped and named.
    expect(tabA.sent.slice(1).map((m) => m.type)).toEqual(['pong', 'pong', 'pong', 'pong']);
    expect(tabB.sent.slice(1)).toEqual([
      { type: 'pong', id: 'b1', serverTime: SERVER_TIME },
      { type: 'error', code: 'rate_limited', message: expect.stringMatching(/^Too many messages/), for: 'ping', id: 'b2' },
      { type: 'error', code: 'rate_limited', message: expect.any(String), for: 'ping', id: 'b3' },
    ]);
    expect(other.sent.slice(1).map((m) => m.type)).toEqual(['pong', 'pong', 'pong', 'pong', 'pong']);
    expect(tabB.readyState).toBe(WebSocket.OPEN);
    // Two a second come back.
    clock.time += 1000;
    for (let i = 4; i <= 6; i++) tabB.receive(`{"type":"ping","id":"b${i}"}`);
    await settle();
    expect(tabB.sent.slice(4).map((m) => m.type)).toEqual(['pong', 'pong', 'error']);
    hub.onApplicationShutdown();
  });

  it('answers malformed, binary, unknown and invalid frames with the typed error and keeps the socket open', async () => {
    const { hub, connect } = setUp();
    const { socket } = await connect('ana');
    socket.receive('{not json');
    socket.receive('{"type":"ping"}', true);
    socket.receive('{"type":"dance"}');
    socket.receive('{"type":"stem_update","stemId":42}');
    await settle();
    const errors = socket.sent.slice(1);
    expect(errors).toEqual([
      { type: 'error', code: 'malformed', message: expect.any(String) },
      { type: 'error', code: 'malformed', message: 'Binary frames are not accepted; send JSON text' },
      { type: 'error', code: 'unknown_type', message: 'Unknown message type "dance"' },
      { type: 'error', code: 'invalid', message: expect.any(String), for: 'stem_update' },
    ]);
    socket.receive('{"type":"ping","id":"p-1"}');
    await settle();
    expect(socket.sent.at(-1)).toEqual({ type: 'pong', id: 'p-1', serverTime: SERVER_TIME });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    hub.onApplicationShutdown();
  });

  it("dispatches a valid frame to its handler, and a handler's failure comes back as a typed error carrying the message id", async () => {
    const { hub, connect } = setUp();
    const seen: unknown[] = [];
    hub.on('stem_update', (client, message) => {
      seen.push([client.user.id, message.stemId]);
      if (message.stemId === 'gone') throw new Error('Stem not found');
    });
    const { socket } = await connect('ana');
    socket.receive(JSON.stringify({ type: 'stem_update', stemId: 'p1-fast-vocals', muted: true }));
    socket.receive(JSON.stringify({ type: 'stem_update', id: 'save-7', stemId: 'gone', muted: true }));
    await settle();
    expect(seen).toEqual([
      ['ana', 'p1-fast-vocals'],
      ['ana', 'gone'],
    ]);
    expect(socket.sent.slice(1)).toEqual([{ type: 'error', code: 'failed', message: 'Stem not found', for: 'stem_update', id: 'save-7' }]);
    hub.onApplicationShutdown();
  });

  it('pings every socket each heartbeat and drops one that did not answer the last ping', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'] });
    const { hub, connect } = setUp();
    const live = (await connect('ana')).socket;
    const silent = (await connect('ana', { socket: new FakeSocket(false) })).socket;

    jest.advanceTimersByTime(1000);
    await settle();
    expect([live.pings, silent.pings]).toEqual([1, 1]);
    expect(silent.terminated).toBe(false);

    jest.advanceTimersByTime(1000);
    await settle();
    expect(silent.terminated).toBe(true);
    expect(live.terminated).toBe(false);
    expect(live.pings).toBe(2);
    // The dropped socket no longer counts as one of the user's.
    expect(hub.sendToUser('ana', { type: 'project_deleted', projectId: 'p1' })).toBe(1);

    // A socket that keeps answering is kept, round after round.
    for (let round = 0; round < 3; round++) {
      jest.advanceTimersByTime(1000);
      await settle();
    }
    expect(live.pings).toBe(5);
    expect(live.terminated).toBe(false);
    hub.onApplicationShutdown();
  });
});
