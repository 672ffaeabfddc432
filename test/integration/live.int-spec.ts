import WebSocket from 'ws';
import { BASE_URL } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';

const WS_URL = `${BASE_URL.replace(/^http/, 'ws')}/ws`;

function open(headers: Record<string, string>): Promise<{ socket: WebSocket; next: () => Promise<Record<string, unknown>> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(WS_URL, { headers });
    const queue: Array<Record<string, unknown>> = [];
    const waiters: Array<(m: Record<string, unknown>) => void> = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const waiter = waiters.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    socket.once('open', () =>
      resolve({
        socket,
        next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((r) => waiters.push(r))),
      }),
    );
    socket.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

describe('live connection /ws', () => {
  let agent: SignedInAgent;
  beforeAll(async () => {
    agent = await signIn('demo', 'demo');
  });

  it('refuses a connection without a signed-in session', async () => {
    await expect(open({ origin: BASE_URL })).rejects.toThrow('status 401');
  });

  it('refuses a signed-in cookie sent from a foreign page', async () => {
    await expect(open({ cookie: agent.cookie, origin: 'https://evil.example' })).rejects.toThrow('status 403');
  });

  it('greets a signed-in socket and answers ping', async () => {
    const { socket, next } = await open({ cookie: agent.cookie, origin: BASE_URL });
    expect(await next()).toMatchObject({ type: 'welcome', userId: expect.any(String) });
    socket.send(JSON.stringify({ type: 'ping', id: 7 }));
    expect(await next()).toMatchObject({ type: 'pong', id: 7 });
    socket.close();
  });

  it('answers malformed and unknown messages with an error and keeps the socket open', async () => {
    const { socket, next } = await open({ cookie: agent.cookie, origin: BASE_URL });
    await next(); // welcome
    socket.send('this is not json');
    expect(await next()).toEqual({ type: 'error', code: 'malformed', message: 'Malformed message: not valid JSON' });
    socket.send(JSON.stringify({ hello: 'world' }));
    expect(await next()).toEqual({ type: 'error', code: 'malformed', message: 'Malformed message: missing string field "type"' });
    socket.send(JSON.stringify({ type: 'warp_drive' }));
    expect(await next()).toEqual({ type: 'error', code: 'unknown_type', message: 'Unknown message type "warp_drive"' });
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await next()).toMatchObject({ type: 'error', code: 'malformed' });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.send(JSON.stringify({ type: 'ping' }));
    expect(await next()).toMatchObject({ type: 'pong' });
    socket.close();
  });

  it('refuses a session cookie once that session has signed out', async () => {
    const other = await signIn('demo', 'demo');
    await other.fetch('/api/logout');
    await expect(open({ cookie: other.cookie, origin: BASE_URL })).rejects.toThrow('status 401');
  });
});
