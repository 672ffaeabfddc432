import { createSocket, Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import OSC from 'osc-js';
import { WebSocket } from 'ws';
import { OscBridge } from './bridge';
import type { UdpTarget } from './target';

/** Values in arrival order; `next` waits for the next one. */
class Inbox<T> {
  private readonly values: T[] = [];
  private readonly waiters: ((value: T) => void)[] = [];

  push(value: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(value);
    else this.values.push(value);
  }

  next(): Promise<T> {
    const value = this.values.shift();
    return value !== undefined ? Promise.resolve(value) : new Promise((resolve) => this.waiters.push(resolve));
  }
}

interface UdpListener {
  target: UdpTarget;
  datagrams: Inbox<Buffer>;
  socket: Socket;
}

async function listenUdp(): Promise<UdpListener> {
  const socket = createSocket('udp4');
  const datagrams = new Inbox<Buffer>();
  socket.on('message', (datagram) => datagrams.push(datagram));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, datagrams, target: { host: '127.0.0.1', port: (socket.address() as AddressInfo).port } };
}

interface Client {
  socket: WebSocket;
  /** Text frames as sent. */
  raw: Inbox<string>;
  /** The next text frame, parsed. */
  next(): Promise<unknown>;
}

function connect(port: number, origin?: string, path = '/'): Promise<Client> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, origin ? { origin } : {});
  const raw = new Inbox<string>();
  socket.on('message', (data) => raw.push(data.toString()));
  const client: Client = { socket, raw, next: async () => JSON.parse(await raw.next()) };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
  });
}

/** The HTTP status a refused upgrade answers with. */
function refusalStatus(port: number, origin?: string, path = '/'): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, origin ? { origin } : {});
    socket.once('open', () => reject(new Error(`origin ${origin} on ${path} was accepted`)));
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
  });
}

function decode(datagram: Buffer): { address: string; types: string; args: unknown[] } {
  const message = new OSC.Message('/');
  message.unpack(new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength));
  return { address: message.address, types: message.types, args: message.args };
}

const padTrigger = () => new OSC.Message('/stemdeck/pad/vocals', 127).pack();
/** Beat number as int32, tempo as float32, the way a VJ patch wants them. */
function beat(): Uint8Array {
  const message = new OSC.TypedMessage('/stemdeck/beat', []);
  message.add('i', 1);
  message.add('f', 120);
  return message.pack();
}

describe('OscBridge', () => {
  let bridge: OscBridge;
  let port: number;
  let resolume: UdpListener;
  const clients: WebSocket[] = [];
  const listeners: UdpListener[] = [];

  async function start(allowedOrigins: string[] = [], resolumeTarget?: UdpTarget): Promise<void> {
    bridge = new OscBridge({ port: 0, target: resolume.target, allowedOrigins, ...(resolumeTarget ? { resolumeTarget } : {}) });
    ({ port } = await bridge.start());
  }

  async function open(origin?: string, path = '/'): Promise<Client> {
    const client = await connect(port, origin, path);
    clients.push(client.socket);
    await expect(client.next()).resolves.toMatchObject({ type: 'status', state: 'ready', route: path === '/' ? 'default' : 'resolume' });
    return client;
  }

  async function udp(): Promise<UdpListener> {
    const listener = await listenUdp();
    listeners.push(listener);
    return listener;
  }

  beforeEach(async () => {
    resolume = await udp();
  });

  afterEach(async () => {
    for (const socket of clients.splice(0)) socket.terminate();
    await bridge?.close();
    for (const listener of listeners.splice(0)) listener.socket.close();
  });

  describe('with the default origins', () => {
    beforeEach(() => start());

    it('greets each connection with its status, its route, the target and the protocol version', async () => {
      const client = await connect(port);
      clients.push(client.socket);
      await expect(client.raw.next()).resolves.toBe(
        `{"type":"status","state":"ready","route":"default","target":{"host":"127.0.0.1","port":${resolume.target.port}},"version":2}`,
      );
    });

    it('forwards a pad trigger verbatim as one OSC datagram', async () => {
      const client = await open();
      const packet = padTrigger();
      client.socket.send(packet);
      const datagram = await resolume.datagrams.next();
      expect(datagram).toEqual(Buffer.from(packet));
      expect(decode(datagram)).toEqual({ address: '/stemdeck/pad/vocals', types: ',i', args: [127] });
    });

    it('forwards a beat with an int and a float argument', async () => {
      const client = await open();
      const packet = beat();
      client.socket.send(packet);
      const datagram = await resolume.datagrams.next();
      expect(datagram).toEqual(Buffer.from(packet));
      expect(decode(datagram)).toEqual({ address: '/stemdeck/beat', types: ',if', args: [1, 120] });
    });

    it('forwards a bundle verbatim', async () => {
      const client = await open();
      const packet = new OSC.Bundle([new OSC.Message('/stemdeck/transport', 'start')], Date.now()).pack();
      client.socket.send(packet);
      await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(packet));
    });

    it('moves the target for every client and sends later packets there', async () => {
      const sender = await open();
      const watcher = await open();
      const touchDesigner = await udp();

      sender.socket.send(new OSC.Message('/before').pack());
      expect(decode(await resolume.datagrams.next()).address).toBe('/before');

      sender.socket.send(JSON.stringify({ type: 'target', ...touchDesigner.target }));
      const moved = { type: 'status', state: 'ready', route: 'default', target: touchDesigner.target, version: 2 };
      await expect(sender.next()).resolves.toEqual(moved);
      await expect(watcher.next()).resolves.toEqual(moved);
      watcher.socket.send(new OSC.Message('/after').pack());
      expect(decode(await touchDesigner.datagrams.next()).address).toBe('/after');

      // Moving back shows '/after' never reached the first listener: its next datagram is '/back'.
      sender.socket.send(JSON.stringify({ type: 'target', ...resolume.target }));
      await expect(sender.next()).resolves.toMatchObject({ target: resolume.target });
      sender.socket.send(new OSC.Message('/back').pack());
      expect(decode(await resolume.datagrams.next()).address).toBe('/back');
    });

    const badPort = 'Invalid target: port must be an integer 1..65535';
    const badHost = 'Invalid target: host must be an IPv4 address or a hostname';
    it.each([
      [{ type: 'target', host: '127.0.0.1', port: 70000 }, `${badPort} (got 70000)`],
      [{ type: 'target', host: '127.0.0.1', port: '7000' }, `${badPort} (got "7000")`],
      [{ type: 'target', host: '127.0.0.1' }, `${badPort} (got undefined)`],
      [{ type: 'target', host: '', port: 7000 }, `${badHost} (got "")`],
      [{ type: 'target', host: '::1', port: 7000 }, `${badHost} (got "::1")`],
      [{ type: 'target', host: '300.1.1.1', port: 7000 }, `${badHost} (got "300.1.1.1")`],
      [{ type: 'target', port: 7000 }, `${badHost} (got undefined)`],
    ])('refuses the target %j and keeps the old one', async (request, message) => {
      const client = await open();
      client.socket.send(JSON.stringify(request));
      await expect(client.next()).resolves.toEqual({ type: 'error', message });
      client.socket.send(padTrigger());
      await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));
    });

    it.each([
      ['not JSON', 'play', /must be JSON/],
      ['an unknown type', JSON.stringify({ type: 'play' }), /Unknown message type "play"/],
      ['JSON null', 'null', /Unknown message type/],
    ])('answers %s in a text frame with an error and stays open', async (_case, text, message) => {
      const client = await open();
      client.socket.send(text);
      await expect(client.next()).resolves.toEqual({ type: 'error', message: expect.stringMatching(message) });
      client.socket.send(padTrigger());
      await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));
    });

    it.each([
      ['plain bytes', Buffer.from('hello world!')],
      ['a misaligned address', Buffer.from('/stemdeck/pad')],
      ['an unterminated address', Buffer.from('/abc')],
      ['a message without type tags', Buffer.from('/a\0\0x\0\0\0')],
      ['a message with trailing bytes', Buffer.concat([Buffer.from(padTrigger()), Buffer.alloc(4)])],
      ['a truncated message', Buffer.from(padTrigger()).subarray(0, 28)],
      ['a bundle head alone', Buffer.from('#bundle\0')],
    ])('refuses %s as not OSC and sends nothing', async (_case, bytes) => {
      const client = await open();
      client.socket.send(bytes);
      await expect(client.next()).resolves.toEqual({ type: 'error', message: 'Not an OSC packet' });
      // Frames are handled in order, so had the bad one been sent, it would arrive first.
      client.socket.send(padTrigger());
      await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));
    });

    it('reports a failed UDP send to the sender', async () => {
      const client = await open();
      client.socket.send(JSON.stringify({ type: 'target', host: 'no-such-host.invalid', port: 7000 }));
      await expect(client.next()).resolves.toMatchObject({ type: 'status' });
      client.socket.send(padTrigger());
      const error = await client.next();
      expect(error).toEqual({
        type: 'error',
        message: expect.stringMatching(/^UDP send to no-such-host\.invalid:7000 failed: \S/),
      });
    });

    it('closes a connection that sends a frame over 64 KiB', async () => {
      const client = await open();
      const closed = new Promise<number>((resolve) => client.socket.once('close', resolve));
      client.socket.send(Buffer.alloc(64 * 1024 + 4));
      await expect(closed).resolves.toBe(1009);
    });

    it.each(['http://localhost:8080', 'https://localhost:5173', 'http://127.0.0.1:8080', 'http://localhost'])(
      'accepts the loopback origin %s',
      async (origin) => {
        const client = await open(origin);
        client.socket.send(padTrigger());
        await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));
      },
    );

    it.each(['https://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example:80', 'null'])(
      'refuses the origin %s with 403',
      async (origin) => {
        await expect(refusalStatus(port, origin)).resolves.toBe(403);
      },
    );
  });

  describe('routes', () => {
    /** Resolume's own listener; the default route's target stays `resolume` (the listener the other tests use). */
    let arena: UdpListener;
    beforeEach(async () => {
      arena = await udp();
      await start([], arena.target);
    });

    /** Proves no frame arrived for `client` so far: a bad text frame's error is the next one it reads. */
    async function expectNoFrameSince(client: Client): Promise<void> {
      client.socket.send('not json');
      await expect(client.next()).resolves.toMatchObject({ type: 'error', message: expect.stringMatching(/must be JSON/) });
    }

    it('greets /resolume with its own route and target', async () => {
      const client = await connect(port, undefined, '/resolume');
      clients.push(client.socket);
      await expect(client.raw.next()).resolves.toBe(
        `{"type":"status","state":"ready","route":"resolume","target":{"host":"127.0.0.1","port":${arena.target.port}},"version":2}`,
      );
    });

    it('sends each route\'s packets to its own target', async () => {
      const general = await open();
      const vj = await open(undefined, '/resolume');
      const tempo = new OSC.TypedMessage('/composition/tempocontroller/tempo', []);
      tempo.add('f', 0.25);
      vj.socket.send(tempo.pack());
      general.socket.send(beat());
      const datagram = await arena.datagrams.next();
      expect(decode(datagram)).toEqual({ address: '/composition/tempocontroller/tempo', types: ',f', args: [0.25] });
      expect(decode(await resolume.datagrams.next()).address).toBe('/stemdeck/beat');
      // Crossed over, the next ones would arrive here first.
      vj.socket.send(new OSC.Message('/composition/tempocontroller/resync', 1).pack());
      general.socket.send(padTrigger());
      expect(decode(await arena.datagrams.next()).address).toBe('/composition/tempocontroller/resync');
      expect(decode(await resolume.datagrams.next()).address).toBe('/stemdeck/pad/vocals');
    });

    it('moves one route\'s target, tells only that route\'s clients, and leaves the other route alone', async () => {
      const general = await open();
      const vj = await open(undefined, '/resolume');
      const otherVj = await open(undefined, '/resolume?tab=2');
      const moved = await udp();
      vj.socket.send(JSON.stringify({ type: 'target', ...moved.target }));
      const status = { type: 'status', state: 'ready', route: 'resolume', target: moved.target, version: 2 };
      await expect(vj.next()).resolves.toEqual(status);
      await expect(otherVj.next()).resolves.toEqual(status);
      await expectNoFrameSince(general);

      otherVj.socket.send(new OSC.Message('/composition/tempocontroller/resync', 1).pack());
      expect(decode(await moved.datagrams.next()).address).toBe('/composition/tempocontroller/resync');
      general.socket.send(padTrigger());
      await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));

      // And the other way round: the default route's move does not reach Resolume's clients.
      general.socket.send(JSON.stringify({ type: 'target', ...arena.target }));
      await expect(general.next()).resolves.toMatchObject({ route: 'default', target: arena.target });
      await expectNoFrameSince(vj);
      vj.socket.send(padTrigger());
      await expect(moved.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));
    });

    it('checks packets, control frames and frame sizes on /resolume too', async () => {
      const vj = await open(undefined, '/resolume');
      vj.socket.send(Buffer.from('hello world!'));
      await expect(vj.next()).resolves.toEqual({ type: 'error', message: 'Not an OSC packet' });
      vj.socket.send(JSON.stringify({ type: 'target', host: '::1', port: 7000 }));
      await expect(vj.next()).resolves.toEqual({ type: 'error', message: 'Invalid target: host must be an IPv4 address or a hostname (got "::1")' });
      vj.socket.send(padTrigger());
      await expect(arena.datagrams.next()).resolves.toEqual(Buffer.from(padTrigger()));
      const closed = new Promise<number>((resolve) => vj.socket.once('close', resolve));
      vj.socket.send(Buffer.alloc(64 * 1024 + 4));
      await expect(closed).resolves.toBe(1009);
    });

    it('refuses a foreign origin on /resolume with 403', async () => {
      await expect(refusalStatus(port, 'https://evil.example', '/resolume')).resolves.toBe(403);
    });

    it.each(['/resolume/', '/Resolume', '/touchdesigner', '/resolume/x'])('refuses the unknown path %s with 404', async (path) => {
      await expect(refusalStatus(port, undefined, path)).resolves.toBe(404);
    });
  });

  describe('with OSC_BRIDGE_ORIGINS', () => {
    beforeEach(() => start(['https://vj.example']));

    it('accepts a listed origin', async () => {
      const client = await open('https://vj.example');
      client.socket.send(beat());
      await expect(resolume.datagrams.next()).resolves.toEqual(Buffer.from(beat()));
    });

    it('still refuses an unlisted one', async () => {
      await expect(refusalStatus(port, 'https://vj.example.evil')).resolves.toBe(403);
    });
  });
});
