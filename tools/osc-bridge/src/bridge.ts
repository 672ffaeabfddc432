import { createSocket } from 'node:dgram';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { type BridgeConfig, DEFAULT_RESOLUME_TARGET } from './config';
import { isOscPacket } from './osc-packet';
import { checkTarget, formatTarget, UdpTarget } from './target';

/** Loopback only: the bridge turns WebSocket frames into UDP, which nothing off this machine may drive. */
export const BRIDGE_HOST = '127.0.0.1';
/**
 * 2: routes. The WebSocket's path picks a route with its own UDP target ('/' the default one, as in version 1;
 * '/resolume' Resolume's), and status frames name their route. A version 1 bridge took any path for its one
 * target, so a client of a route other than '/' checks the greeting's route before it sends anything.
 */
export const PROTOCOL_VERSION = 2;
/** The routes by WebSocket path. */
export const ROUTES = { '/': 'default', '/resolume': 'resolume' } as const;
export type RouteName = (typeof ROUTES)[keyof typeof ROUTES];
/** An OSC pad or beat message is tens of bytes; anything near this is a mistake or abuse. */
const MAX_FRAME_BYTES = 64 * 1024;
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

type ServerFrame =
  | { type: 'status'; state: 'ready'; route: RouteName; target: UdpTarget; version: number }
  | { type: 'error'; message: string };

interface Route {
  name: RouteName;
  target: UdpTarget;
  clients: Set<WebSocket>;
}

/** The route a request's path names (a query string is ignored), or undefined for any other path. */
export function routeOfUrl(url: string | undefined): RouteName | undefined {
  let path: string;
  try {
    path = new URL(url ?? '/', 'ws://bridge').pathname;
  } catch {
    return undefined;
  }
  return Object.hasOwn(ROUTES, path) ? ROUTES[path as keyof typeof ROUTES] : undefined;
}

/**
 * Browsers cannot send UDP, so the studio sends each OSC packet as one binary WebSocket frame and the
 * bridge forwards its bytes verbatim as one datagram to its route's target (TouchDesigner or any OSC
 * receiver on the default route, Resolume on its own). Every route has the same origin check, packet check
 * and frame-size limit.
 */
export class OscBridge {
  private readonly routes: Record<RouteName, Route>;
  private readonly udp = createSocket('udp4');
  private server?: WebSocketServer;

  constructor(private readonly config: BridgeConfig) {
    this.routes = {
      default: { name: 'default', target: config.target, clients: new Set() },
      resolume: { name: 'resolume', target: config.resolumeTarget ?? DEFAULT_RESOLUME_TARGET, clients: new Set() },
    };
    // Send failures reach the sender through the send callback; this only keeps a socket error from crashing.
    this.udp.on('error', (error) => console.error(`OSC bridge UDP socket error: ${error.message}`));
  }

  /** Listens on 127.0.0.1; port 0 picks a free port, and the real one is returned. */
  start(): Promise<{ port: number }> {
    return new Promise((resolve, reject) => {
      const server = new WebSocketServer({
        host: BRIDGE_HOST,
        port: this.config.port,
        maxPayload: MAX_FRAME_BYTES,
        // Any web page can open a WebSocket to localhost; only the studio's own origins may drive UDP here.
        verifyClient: ({ origin, req }, done) => {
          if (!this.originAllowed(origin)) return done(false, 403, 'Origin not allowed');
          if (!routeOfUrl(req.url)) return done(false, 404, 'No such route: connect to / or /resolume');
          done(true);
        },
      });
      this.server = server;
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        resolve({ port: (server.address() as AddressInfo).port });
      });
      server.on('connection', (socket, request: IncomingMessage) => this.attach(socket, this.routes[routeOfUrl(request.url)!]));
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server) {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await new Promise<void>((resolve) => this.udp.close(() => resolve()));
  }

  /** Absent for non-browser clients, which are not the cross-site risk the check is for. */
  private originAllowed(origin: string | undefined): boolean {
    return origin === undefined || LOOPBACK_ORIGIN.test(origin) || this.config.allowedOrigins.includes(origin);
  }

  private attach(socket: WebSocket, route: Route): void {
    route.clients.add(socket);
    socket.on('close', () => route.clients.delete(socket));
    // ws closes the socket itself on a protocol error (1009 for a frame over maxPayload); this only keeps
    // the error event from crashing the bridge.
    socket.on('error', () => undefined);
    socket.on('message', (data, isBinary) => {
      // The default binaryType is 'nodebuffer', so every frame arrives as one Buffer.
      const bytes = data as Buffer;
      if (isBinary) this.forward(socket, route, bytes);
      else this.command(socket, route, bytes.toString('utf8'));
    });
    this.reply(socket, this.status(route));
  }

  private forward(socket: WebSocket, route: Route, bytes: Buffer): void {
    if (!isOscPacket(bytes)) return this.reply(socket, { type: 'error', message: 'Not an OSC packet' });
    // The target may change before the send completes; the error names the one this packet went to.
    const target = route.target;
    this.udp.send(bytes, target.port, target.host, (error) => {
      if (error) {
        this.reply(socket, { type: 'error', message: `UDP send to ${formatTarget(target)} failed: ${error.message}` });
      }
    });
  }

  /** Text frames carry control messages; the only one is a target change, which applies to every client of the route. */
  private command(socket: WebSocket, route: Route, text: string): void {
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      const message = 'Text frames must be JSON; send OSC packets as binary frames';
      return this.reply(socket, { type: 'error', message });
    }
    const { type, host, port } = (request ?? {}) as Record<string, unknown>;
    if (type !== 'target') {
      return this.reply(socket, {
        type: 'error',
        message: `Unknown message type ${JSON.stringify(type)}: the only text message is {"type":"target",...}`,
      });
    }
    try {
      route.target = checkTarget(host, port);
    } catch (error) {
      return this.reply(socket, { type: 'error', message: `Invalid target: ${(error as Error).message}` });
    }
    for (const client of route.clients) this.reply(client, this.status(route));
  }

  private status(route: Route): ServerFrame {
    return { type: 'status', state: 'ready', route: route.name, target: { ...route.target }, version: PROTOCOL_VERSION };
  }

  private reply(socket: WebSocket, frame: ServerFrame): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }
}
