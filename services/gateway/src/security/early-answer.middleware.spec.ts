import express from 'express';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { earlyAnswerLinger } from './early-answer.middleware';

const KB = 1024;
// Wide enough apart that a test process held up for a moment (a loaded machine) does not look like a client pausing.
const LIMITS = { idleMs: 800, maxMs: 3000, maxBytes: 256 * KB };

/** A client on a raw socket: what it has read, and when the server closed the connection (ms after the answer). */
interface Client {
  socket: Socket;
  received: () => string;
  answered: Promise<number>;
  closed: Promise<number>;
  /** Sends `bytes` of body now; false once the connection is gone. */
  send(bytes: number): boolean;
  /** The socket's error, if it had one (a reset). */
  error: () => string | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('earlyAnswerLinger', () => {
  let port: number;
  let close: () => void;

  beforeAll(async () => {
    const app = express();
    app.use(earlyAnswerLinger(LIMITS));
    // Refuses at once, without reading the body (as the upload route does over the quota).
    app.post('/refuse', (_req, res) => void res.status(413).json({ message: 'too large' }));
    // Reads the first 64 KB, lets go of the body and refuses (as the upload route does past what is left).
    app.post('/refuse-midway', (req, res) => {
      const parser = new Writable({ highWaterMark: 1, write: (_chunk, _encoding, done) => setTimeout(done, 5) });
      let read = 0;
      req.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read < 64 * KB) return;
        req.unpipe(parser);
        req.removeAllListeners('data');
        res.status(413).json({ message: 'too large' });
      });
      req.pipe(parser);
    });
    // Reads the whole body, then answers.
    app.post('/read', (req, res) => {
      req.resume();
      req.on('end', () => void res.json({ ok: true, closeListeners: req.socket.listenerCount('close') }));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => server.close();
  });
  afterAll(() => close());

  function post(path: string, contentLength: number, firstBytes: number, headers = '', halfOpen = false): Client {
    // halfOpen: sending on after the server's half-close, as a client still writing its body does.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: halfOpen });
    let text = '';
    let answeredAt = 0;
    let gone = false;
    const answered = new Promise<number>((resolve) =>
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (!answeredAt && text.includes('\r\n\r\n')) resolve((answeredAt = Date.now()));
      }),
    );
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - answeredAt)));
    let error: string | undefined;
    socket.on('error', (problem: NodeJS.ErrnoException) => (error = problem.code ?? problem.message));
    socket.on('close', () => (gone = true));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${contentLength}\r\n${headers}\r\n`);
    socket.write(Buffer.alloc(firstBytes));
    return { socket, received: () => text, answered, closed, send: (bytes) => !gone && (socket.write(Buffer.alloc(bytes)), true), error: () => error };
  }

  /** The client goes on with its body after the answer: five writes of `bytes`, 50 ms apart; whether each went out. */
  async function keepSending(client: Client, bytes: number): Promise<boolean[]> {
    const sent: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      await sleep(50);
      sent.push(client.send(bytes));
    }
    return sent;
  }

  it('answers a body it will not read, keeps reading while the client still sends, and closes once the client pauses', async () => {
    const client = post('/refuse', 10 * 1024 * KB, 64 * KB);
    await client.answered;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    // The client goes on sending for a while (it has not read the answer yet): nothing is reset meanwhile.
    expect(await keepSending(client, 16 * KB)).toEqual([true, true, true, true, true]);
    expect(client.socket.destroyed).toBe(false);
    // Then it stops: the connection is closed about idleMs later, not before, and long before maxMs.
    const stoppedAt = Date.now();
    const afterAnswer = await client.closed;
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(LIMITS.idleMs - 100);
    expect(afterAnswer).toBeLessThan(LIMITS.maxMs - 500);
    // Everything it sent was read: a close, not a reset.
    expect(client.error()).toBeUndefined();
  });

  it('reads on after a parser let go of the body midway', async () => {
    const client = post('/refuse-midway', 10 * 1024 * KB, 128 * KB);
    await client.answered;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    // Past what the request buffers while nobody reads it (and under maxBytes in all).
    await keepSending(client, 48 * KB);
    expect(client.socket.destroyed).toBe(false);
    const stoppedAt = Date.now();
    await client.closed;
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(LIMITS.idleMs - 100);
    expect(client.error()).toBeUndefined();
  });

  it('lingers too for a client that asked for the connection to close: a half-close, then the close once it pauses', async () => {
    const client = post('/refuse', 10 * 1024 * KB, 64 * KB, 'Connection: close\r\n', true);
    await client.answered;
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
    // Closed at once, the connection would answer these with a reset.
    await keepSending(client, 16 * KB);
    await sleep(LIMITS.idleMs / 2);
    expect(client.error()).toBeUndefined();
    // Closed once the client paused: bytes sent now are answered with a reset (seen on the next write).
    await sleep(LIMITS.idleMs);
    for (let tries = 0; tries < 50 && !client.error(); tries++) {
      client.send(1);
      await sleep(20);
    }
    expect(client.error()).toMatch(/^(ECONNRESET|EPIPE)$/);
    client.socket.destroy();
  });

  it('closes once maxBytes more have come, however fast the client sends', async () => {
    const client = post('/refuse', 10 * 1024 * KB, 0);
    await client.answered;
    let sent = 0;
    while (client.send(32 * KB) !== false && sent < 4 * 1024 * KB) {
      sent += 32 * KB;
      await sleep(1);
    }
    const afterAnswer = await client.closed;
    expect(afterAnswer).toBeLessThan(LIMITS.maxMs);
    expect(sent).toBeGreaterThan(LIMITS.maxBytes);
    expect(sent).toBeLessThan(4 * 1024 * KB);
  });

  it('closes maxMs after the answer at the latest, for a client that trickles', async () => {
    const client = post('/refuse', 10 * 1024 * KB, KB);
    await client.answered;
    const trickle = setInterval(() => client.send(KB), 100);
    try {
      const afterAnswer = await client.closed;
      expect(afterAnswer).toBeGreaterThanOrEqual(LIMITS.maxMs - 100);
      expect(afterAnswer).toBeLessThan(LIMITS.maxMs + 1000);
    } finally {
      clearInterval(trickle);
    }
  });

  it('keeps the connection of a client that finishes its body: the next request on it is answered', async () => {
    const client = post('/refuse', 96 * KB, 64 * KB);
    await client.answered;
    client.send(32 * KB);
    // Lingering, it would be closed idleMs after the last byte.
    await sleep(2 * LIMITS.idleMs);
    expect(client.socket.destroyed).toBe(false);
    client.socket.write('POST /read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc');
    for (let tries = 0; tries < 50 && !client.received().includes('"ok":true'); tries++) await sleep(20);
    // Answered, and the linger left nothing behind on the connection: as many close listeners as on a fresh one.
    const fresh = post('/read', 3, 3);
    await fresh.answered;
    for (let tries = 0; tries < 50 && !fresh.received().includes('"ok":true'); tries++) await sleep(20);
    const closeListeners = (text: string) => Number(/"closeListeners":(\d+)/.exec(text)?.[1]);
    expect(closeListeners(client.received())).toBe(closeListeners(fresh.received()));
    client.socket.destroy();
    fresh.socket.destroy();
  });

  it('leaves answers after the whole body alone', async () => {
    const client = post('/read', 64 * KB, 64 * KB);
    await client.answered;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    await sleep(2 * LIMITS.idleMs);
    expect(client.socket.destroyed).toBe(false);
    client.socket.destroy();
  });
});
