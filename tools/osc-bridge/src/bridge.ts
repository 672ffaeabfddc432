import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { BridgeConfig } from './config';
import { isOscPacket } from './osc-packet';
import { checkTarget, formatTarget, UdpTarget } from './target';

/** Loopback only: the bridge turns WebSocket frames into UDP, which nothing off this machine may drive. */
export const BRIDGE_HOST = '127.0.0.1';
const PROTOCOL_VERSION = 1;
/** An OSC pad or beat message is tens of bytes; anything near this is a mistake or abuse. */
const MAX_FRAME_BYTES = 64 * 1024;
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

type ServerFrame =
  | { type: 'status'; state: 'ready'; target: UdpTarget; version: number }
  | { type: 'error'; message: string };

/**
 * Browsers cannot send UDP, so the studio sends each OSC packet as one binary WebSocket frame and the
 * bridge forwards its bytes verbatim as one datagram to the target (Resolume, TouchDesigner).
 */
export class OscBridge {
  private target: UdpTarget;
  private readonly udp = createSocket('udp4');
  private server?: WebSocketServer;

  constructor(private readonly config: BridgeConfig) {
    this.target = config.target;
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
        verifyClient: ({ origin }, done) => done(this.originAllowed(origin), 403, 'Origin not allowed'),
      });
      this.server = server;
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        resolve({ port: (server.address() as AddressInfo).port });
      });
      server.on('connection', (socket) => this.attach(socket));
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

  private attach(socket: WebSocket): void {
    // ws closes the socket itself on a protocol error (1009 for a frame over maxPayload); this only keeps
    // the error event from crashing the bridge.
    socket.on('error', () => undefined);
    socket.on('message', (data, isBinary) => {
      // The default binaryType is 'nodebuffer', so every frame arrives as one Buffer.
      const bytes = data as Buffer;
      if (isBinary) this.forward(socket, bytes);
      else this.command(socket, bytes.toString('utf8'));
    });
    this.reply(socket, this.status());
  }

  private forward(socket: WebSocket, bytes: Buffer): void {
    if (!isOscPacket(bytes)) return this.reply(socket, { type: 'error', message: 'Not an OSC packet' });
    // The target may change before the send completes; the error names the one this packet went to.
    const target = this.target;
    this.udp.send(bytes, target.port, target.host, (error) => {
      if (error) {
        this.reply(socket, { type: 'error', message: `UDP send to ${formatTarget(target)} failed: ${error.message}` });
      }
    });
  }

  /** Text frames carry control messages; the only one is a target change, which applies to every client. */
  private command(socket: WebSocket, text: string): void {
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
      this.target = checkTarget(host, port);
    } catch (error) {
      return this.reply(socket, { type: 'error', message: `Invalid target: ${(error as Error).message}` });
    }
    for (const client of this.server?.clients ?? []) this.reply(client, this.status());
  }

  private status(): ServerFrame {
    return { type: 'status', state: 'ready', target: { ...this.target }, version: PROTOCOL_VERSION };
  }

  private reply(socket: WebSocket, frame: ServerFrame): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }
}
