import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, RequestHandler, Response } from 'express';
import { LIVE_PROTOCOL_VERSION, MAX_LIVE_MESSAGE_BYTES, parseClientFrame, type LiveClientMessage, type LiveMessageOf, type LiveServerMessage } from '@stemdeck/proto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator, websocketConnections, websocketMessages } from '@stemdeck/platform';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { TokenBucket } from '../limits/token-bucket';
import { requestOrigin } from '../security/csrf.middleware';
import { SESSION_MIDDLEWARE } from '../session/session.middleware';
import type { SessionUser } from '../session/session-user';

export interface LiveClient {
  user: SessionUser;
  /** This socket's id, told to the browser in `welcome`; events caused by this socket skip it. */
  connectionId: string;
  send(message: LiveServerMessage): void;
}

/** Another WebSocket path on the gateway's server (e.g. the output sockets); it handles its own upgrade. */
export type UpgradeRoute = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export type LiveHandler<T extends LiveClientMessage['type'] = LiveClientMessage['type']> = (client: LiveClient, message: LiveMessageOf<T>) => void | Promise<void>;

/** The answer to a message dropped for its rate, naming its type and id when it has them (a save waiting for it fails at once). */
function droppedMessage(data: Buffer, isBinary: boolean): LiveServerMessage {
  const dropped: LiveServerMessage = { type: 'error', code: 'rate_limited', message: 'Too many messages in a short time: this one was dropped. Slow down a little.' };
  if (isBinary || data.length > MAX_LIVE_MESSAGE_BYTES) return dropped;
  try {
    const { type, id } = JSON.parse(data.toString()) as { type?: unknown; id?: unknown };
    return { ...dropped, ...(typeof type === 'string' ? { for: type } : {}), ...(typeof id === 'string' ? { id } : {}) };
  } catch {
    return dropped;
  }
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * The live connection at /ws (plain WebSocket). Only a signed-in session cookie from one of our origins
 * may connect. Frames are the live protocol's JSON messages (proto/src/live.ts), checked by its one
 * validator here at the edge; handlers register by type and get typed messages; a malformed, unknown or
 * invalid frame gets a typed `{type: "error"}` back and the socket stays open.
 */
@Injectable()
export class LiveHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveHub.name);
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_LIVE_MESSAGE_BYTES });
  private readonly handlers = new Map<string, LiveHandler>();
  private readonly socketsByUser = new Map<string, Map<string, WebSocket>>();
  private readonly routes = new Map<string, UpgradeRoute>();
  private readonly closeListeners = new Set<(client: LiveClient) => void>();
  /** Messages each user may still send on this replica (all their sockets here together). */
  private readonly messageBuckets = new Map<string, TokenBucket>();
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(SESSION_MIDDLEWARE) private readonly sessionMiddleware: RequestHandler,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {
    this.on('ping', (client, message) => client.send({ type: 'pong', id: message.id ?? null, serverTime: this.clock.now() }));
  }

  on<T extends LiveClientMessage['type']>(type: T, handler: LiveHandler<T>): void {
    // Dispatch looks a handler up by the parsed message's own type, so it always gets that type.
    this.handlers.set(type, handler as unknown as LiveHandler);
  }

  /** Hands upgrades to `path` (not /ws) to `route`. */
  route(path: string, route: UpgradeRoute): void {
    this.routes.set(path, route);
  }

  /** Calls `listener` when a signed-in socket has closed (state kept for that socket can go). */
  onClose(listener: (client: LiveClient) => void): void {
    this.closeListeners.add(listener);
  }

  /** Whether the user has a socket on this replica. */
  hasSockets(userId: string): boolean {
    return (this.socketsByUser.get(userId)?.size ?? 0) > 0;
  }

  /** Pushes a message to every open socket of one user (e.g. stem progress for their project), but the connection `exceptConnectionId`. */
  sendToUser(userId: string, message: LiveServerMessage, exceptConnectionId?: string | null): number {
    const sockets = this.socketsByUser.get(userId) ?? new Map<string, WebSocket>();
    const frame = JSON.stringify(message);
    let sent = 0;
    for (const [connectionId, socket] of sockets) {
      if (connectionId === exceptConnectionId || socket.readyState !== WebSocket.OPEN) continue;
      socket.send(frame);
      sent++;
    }
    return sent;
  }

  onApplicationBootstrap(): void {
    const server: Server = this.adapterHost.httpAdapter.getHttpServer();
    server.on('upgrade', (req, socket, head) => void this.upgrade(req, socket, head));
    this.heartbeat = setInterval(() => this.checkHeartbeats(), this.config.LIVE_HEARTBEAT_SECONDS * 1000);
    this.heartbeat.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.heartbeat);
    for (const socket of this.wss.clients) socket.close(1001, 'server shutting down');
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = this.routes.get(path);
    if (route) return route(req, socket, head);
    if (path !== '/ws') return refuse(socket, 404, 'Not Found');
    const origin = requestOrigin(req);
    if (origin !== undefined && !this.config.allowedOrigins.has(origin)) return refuse(socket, 403, 'Forbidden');
    const user = await this.userOf(req).catch(() => undefined);
    if (!user) return refuse(socket, 401, 'Unauthorized');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, user));
  }

  private userOf(req: IncomingMessage): Promise<SessionUser | undefined> {
    return new Promise((resolve, reject) => {
      const request = req as unknown as Request;
      this.sessionMiddleware(request, {} as Response, (error?: unknown) => (error ? reject(error) : resolve(request.session?.user)));
    });
  }

  private accept(ws: WebSocket, user: SessionUser): void {
    const alive = ws as WebSocket & { isAlive?: boolean };
    alive.isAlive = true;
    ws.on('pong', () => (alive.isAlive = true));
    const connectionId = this.ids.randomUUID();
    const sockets = this.socketsByUser.get(user.id) ?? new Map<string, WebSocket>();
    sockets.set(connectionId, ws);
    this.socketsByUser.set(user.id, sockets);
    websocketConnections.inc();
    const client: LiveClient = {
      user,
      connectionId,
      send: (message) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(JSON.stringify(message));
        websocketMessages.inc({ direction: 'sent' });
      },
    };
    ws.on('close', () => {
      websocketConnections.dec();
      sockets.delete(connectionId);
      if (sockets.size === 0) {
        this.socketsByUser.delete(user.id);
        this.messageBuckets.delete(user.id);
      }
      for (const listener of this.closeListeners) listener(client);
    });
    ws.on('error', (error) => this.logger.warn(`socket error for ${user.id}: ${error.message}`));
    ws.on('message', (data, isBinary) => {
      websocketMessages.inc({ direction: 'received' });
      if (!this.admit(user.id)) return client.send(droppedMessage(data as Buffer, isBinary));
      void this.dispatch(client, data as Buffer, isBinary);
    });
    client.send({ type: 'welcome', userId: user.id, connectionId, protocol: LIVE_PROTOCOL_VERSION });
  }

  /** Over the per-user message rate a message is dropped (the sender is told); other users have buckets of their own. */
  private admit(userId: string): boolean {
    const now = this.clock.now();
    let bucket = this.messageBuckets.get(userId);
    if (!bucket) {
      bucket = new TokenBucket(this.config.RATE_LIMIT_WS_BURST, this.config.RATE_LIMIT_WS_MESSAGES_PER_SECOND, now);
      this.messageBuckets.set(userId, bucket);
    }
    return bucket.take(now);
  }

  private async dispatch(client: LiveClient, data: Buffer, isBinary: boolean): Promise<void> {
    if (isBinary) return client.send({ type: 'error', code: 'malformed', message: 'Binary frames are not accepted; send JSON text' });
    const parsed = parseClientFrame(data.toString());
    if (!parsed.ok) return client.send(parsed.error);
    const handler = this.handlers.get(parsed.message.type);
    if (!handler) {
      return client.send({ type: 'error', code: 'unknown_type', message: `Unknown message type "${parsed.message.type}"` });
    }
    try {
      await handler(client, parsed.message);
    } catch (error) {
      this.logger.warn(`handler ${parsed.message.type} failed: ${(error as Error).message}`);
      const id = 'id' in parsed.message && typeof parsed.message.id === 'string' ? parsed.message.id : undefined;
      client.send({ type: 'error', code: 'failed', message: (error as Error).message, for: parsed.message.type, ...(id ? { id } : {}) });
    }
  }

  /** A socket that did not answer the last ping is dropped; one bad socket never stops the round. */
  private checkHeartbeats(): void {
    for (const socket of this.wss.clients) {
      try {
        const alive = socket as WebSocket & { isAlive?: boolean };
        if (alive.isAlive === false) {
          socket.terminate();
          continue;
        }
        alive.isAlive = false;
        socket.ping();
      } catch (error) {
        this.logger.warn(`heartbeat failed for a socket, dropping it: ${(error as Error).message}`);
        socket.terminate();
      }
    }
  }
}
