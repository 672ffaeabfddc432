import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  isVisualFrameBytes,
  MAX_OUTPUT_FRAMES_PER_SECOND,
  OUTPUT_INACTIVE_CLOSE_CODE,
  OUTPUT_INACTIVE_REASON,
  OUTPUT_KEY_PATTERN,
  OUTPUT_SOCKET_PATH,
  type OutputControlReply,
  type OutputControlRequest,
} from '@stemdeck/proto';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@stemdeck/platform';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { LiveHub, type LiveClient } from './live.hub';
import { OUTPUT_BUS, type OutputBus } from './output-bus.adapter';

/** An output socket says it still listens this often; the studio's side forgets one not heard for OUTPUT_STALE_MS. */
export const OUTPUT_JOIN_EVERY_MS = 2000;
export const OUTPUT_STALE_MS = 5000;
/** How long a join or claim waits for the gateway holding the studio socket. */
const CONTROL_TIMEOUT_MS = 1000;
/** An output socket only receives; anything it sends is ignored, and more than this closes it. */
const OUTPUT_SOCKET_MAX_PAYLOAD = 1024;
const OUTPUT_MISSED_PINGS = 3;

/** The bus names a key by this hash, so the key itself (the capability) never travels on NATS. */
export const hashOutputKey = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 32);

/** The parts of an output socket the relay uses (a fake one in the unit tests). */
export interface OutputSocket {
  readyState: number;
  send(data: Uint8Array, options: { binary: true }): void;
  close(code: number, reason: string): void;
  on(event: 'close', listener: () => void): unknown;
}

interface StudioKey {
  keyHash: string;
  userId: string;
  client: LiveClient;
  /** Output sockets listening (on any gateway), by id, with when each last said so. */
  outputs: Map<string, number>;
  reported: number;
  stopServing: () => void;
  frameWindowStart: number;
  framesInWindow: number;
}

interface OutputGroup {
  /** The key's output sockets, those whose join is still being answered included (a frame may come first). */
  sockets: Map<string, OutputSocket>;
  unsubscribe: () => void;
}

/**
 * Output links: the studio's visual frames to /output pages in other browsers (an OBS Browser Source), which
 * are not signed in. A studio socket registers a random key (`output_key`); output sockets open
 * /ws/output?key=… without a session and only receive. The two may sit on different gateway replicas, so
 * they meet on NATS under a hash of the key: the studio's gateway answers `join`/`claim` requests and
 * counts the joined outputs (told to the studio as `output_presence`), and publishes the studio's frames,
 * only while some output listens, at most MAX_OUTPUT_FRAMES_PER_SECOND, each checked to be a visual frame.
 * A key belongs to the user who registered it first; another user's `output_key` with it is refused.
 */
@Injectable()
export class OutputRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutputRelay.name);
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: OUTPUT_SOCKET_MAX_PAYLOAD });
  private readonly studios = new Map<string, StudioKey>();
  private readonly studioKeyByConnection = new Map<string, string>();
  private readonly outputs = new Map<string, OutputGroup>();
  /** Pings each output socket missed in a row (a half-open OBS source is dropped after OUTPUT_MISSED_PINGS). */
  private readonly missedPings = new WeakMap<WebSocket, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(LiveHub) hub: Pick<LiveHub, 'on' | 'onClose' | 'route'>,
    @Inject(OUTPUT_BUS) private readonly bus: OutputBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {
    hub.on('output_key', (client, message) => this.registerKey(client, message.key));
    hub.on('output_frame', (client, message) => this.relayFrame(client, message.data));
    hub.onClose((client) => this.dropStudio(client.connectionId));
    hub.route(OUTPUT_SOCKET_PATH, (req, socket, head) => this.upgrade(req, socket, head));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.connect();
    this.timer = setInterval(() => void this.tick(), OUTPUT_JOIN_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    for (const socket of this.wss.clients) socket.close(1001, 'server shutting down');
    this.wss.close();
    await this.bus.close();
  }

  /** The studio's side: this socket streams to output sockets with `key`. */
  async registerKey(client: LiveClient, key: string): Promise<void> {
    const keyHash = hashOutputKey(key);
    const local = this.studios.get(keyHash);
    if (local && local.userId !== client.user.id) throw new Error('This output link belongs to another studio');
    if (!local) {
      const elsewhere = await this.bus.request(keyHash, { op: 'claim', userId: client.user.id }, CONTROL_TIMEOUT_MS);
      if (elsewhere && elsewhere.userId !== client.user.id) throw new Error('This output link belongs to another studio');
    }
    const current = this.studios.get(keyHash); // again: another socket may have registered it meanwhile
    if (current && current.userId !== client.user.id) throw new Error('This output link belongs to another studio');
    const previousHash = this.studioKeyByConnection.get(client.connectionId);
    if (previousHash && previousHash !== keyHash) this.dropStudio(client.connectionId);
    if (current) {
      // The same user's new socket (a reconnect, another tab) takes the key over with its listeners.
      if (current.client.connectionId !== client.connectionId) this.studioKeyByConnection.delete(current.client.connectionId);
      current.client = client;
      current.reported = -1;
    } else {
      const studio: StudioKey = {
        keyHash,
        userId: client.user.id,
        client,
        outputs: new Map(),
        reported: -1,
        stopServing: () => undefined,
        frameWindowStart: -Infinity,
        framesInWindow: 0,
      };
      studio.stopServing = this.bus.serveControl(keyHash, (request) => this.answer(studio, request));
      this.studios.set(keyHash, studio);
    }
    this.studioKeyByConnection.set(client.connectionId, keyHash);
    this.report(this.studios.get(keyHash)!);
  }

  /** The studio's side: one frame from a studio socket, passed on if some output listens and it is a visual frame. */
  relayFrame(client: LiveClient, base64: string): void {
    const keyHash = this.studioKeyByConnection.get(client.connectionId);
    const studio = keyHash ? this.studios.get(keyHash) : undefined;
    if (!studio) throw new Error('Send output_key before output frames');
    const now = this.clock.now();
    if (now - studio.frameWindowStart >= 1000) {
      studio.frameWindowStart = now;
      studio.framesInWindow = 0;
    }
    if (++studio.framesInWindow > MAX_OUTPUT_FRAMES_PER_SECOND) return; // over the rate: dropped
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
    if (!isVisualFrameBytes(bytes)) throw new Error('Not a visual frame');
    if (studio.outputs.size > 0) this.bus.publishFrame(studio.keyHash, bytes);
  }

  /** Number of output sockets listening on the key a connection registered (read by tests). */
  listeners(connectionId: string): number {
    const keyHash = this.studioKeyByConnection.get(connectionId);
    return keyHash ? (this.studios.get(keyHash)?.outputs.size ?? 0) : 0;
  }

  private answer(studio: StudioKey, request: OutputControlRequest): OutputControlReply {
    switch (request.op) {
      case 'join':
        studio.outputs.set(request.outputId, this.clock.now());
        break;
      case 'leave':
        studio.outputs.delete(request.outputId);
        break;
      case 'claim':
        return { ok: true, userId: studio.userId };
    }
    this.report(studio);
    return { ok: true };
  }

  private report(studio: StudioKey): void {
    if (studio.outputs.size === studio.reported) return;
    studio.reported = studio.outputs.size;
    studio.client.send({ type: 'output_presence', count: studio.reported });
  }

  private dropStudio(connectionId: string): void {
    const keyHash = this.studioKeyByConnection.get(connectionId);
    if (!keyHash) return;
    this.studioKeyByConnection.delete(connectionId);
    const studio = this.studios.get(keyHash);
    if (!studio || studio.client.connectionId !== connectionId) return;
    this.studios.delete(keyHash);
    studio.stopServing();
    // An empty frame tells the output sockets' gateways that this key has gone.
    this.bus.publishFrame(keyHash, new Uint8Array(0));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const key = new URL(req.url ?? '/', 'http://localhost').searchParams.get('key') ?? '';
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', (error) => this.logger.warn(`output socket error: ${error.message}`));
      ws.on('message', () => undefined); // receive-only
      this.missedPings.set(ws, 0);
      ws.on('pong', () => this.missedPings.set(ws, 0));
      void this.acceptOutput(ws, key);
    });
  }

  /** The output's side: a socket for `key`, kept only while a studio has registered it. */
  async acceptOutput(socket: OutputSocket, key: string): Promise<void> {
    if (!OUTPUT_KEY_PATTERN.test(key)) return socket.close(OUTPUT_INACTIVE_CLOSE_CODE, OUTPUT_INACTIVE_REASON);
    const keyHash = hashOutputKey(key);
    const outputId = this.ids.randomUUID();
    // Listening (and in the group) before joining: the studio starts sending as soon as the join is answered,
    // and core NATS keeps nothing for a subscription not made yet (the first frames were lost).
    let group = this.outputs.get(keyHash);
    if (!group) {
      const created: OutputGroup = { sockets: new Map(), unsubscribe: () => undefined };
      created.unsubscribe = this.bus.subscribeFrames(keyHash, (frame) => this.deliver(created, frame));
      this.outputs.set(keyHash, created);
      group = created;
    }
    group.sockets.set(outputId, socket);
    const reply = await this.bus.request(keyHash, { op: 'join', outputId }, CONTROL_TIMEOUT_MS).catch(() => null);
    if (!reply?.ok || socket.readyState !== WebSocket.OPEN) {
      group.sockets.delete(outputId);
      this.releaseIfUnused(keyHash, group);
      if (!reply?.ok) return socket.close(OUTPUT_INACTIVE_CLOSE_CODE, OUTPUT_INACTIVE_REASON);
      return this.bus.notify(keyHash, { op: 'leave', outputId });
    }
    socket.on('close', () => {
      const current = this.outputs.get(keyHash);
      if (!current?.sockets.delete(outputId)) return;
      this.bus.notify(keyHash, { op: 'leave', outputId });
      this.releaseIfUnused(keyHash, current);
    });
  }

  /** The key's subscription ends with its last output (joined or joining). */
  private releaseIfUnused(keyHash: string, group: OutputGroup): void {
    if (group.sockets.size > 0 || this.outputs.get(keyHash) !== group) return;
    group.unsubscribe();
    this.outputs.delete(keyHash);
  }

  private deliver(group: OutputGroup, frame: Uint8Array): void {
    if (frame.length === 0) {
      for (const socket of group.sockets.values()) socket.close(OUTPUT_INACTIVE_CLOSE_CODE, OUTPUT_INACTIVE_REASON);
      return;
    }
    for (const socket of group.sockets.values()) if (socket.readyState === WebSocket.OPEN) socket.send(frame, { binary: true });
  }

  /**
   * Every OUTPUT_JOIN_EVERY_MS: output sockets are pinged (dropped after missing OUTPUT_MISSED_PINGS), outputs say
   * they still listen (closed when nobody serves their key), studios forget silent ones.
   */
  async tick(): Promise<void> {
    for (const socket of this.wss.clients) {
      const missed = this.missedPings.get(socket) ?? 0;
      if (missed >= OUTPUT_MISSED_PINGS) {
        socket.terminate();
        continue;
      }
      this.missedPings.set(socket, missed + 1);
      socket.ping();
    }
    const now = this.clock.now();
    for (const studio of this.studios.values()) {
      for (const [outputId, seen] of studio.outputs) if (now - seen > OUTPUT_STALE_MS) studio.outputs.delete(outputId);
      this.report(studio);
    }
    await Promise.all(
      [...this.outputs].flatMap(([keyHash, group]) =>
        [...group.sockets].map(async ([outputId, socket]) => {
          const reply = await this.bus.request(keyHash, { op: 'join', outputId }, CONTROL_TIMEOUT_MS);
          if (!reply?.ok) socket.close(OUTPUT_INACTIVE_CLOSE_CODE, OUTPUT_INACTIVE_REASON);
        }),
      ),
    );
  }
}
