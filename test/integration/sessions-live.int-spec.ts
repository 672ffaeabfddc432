import { signInAt } from '@stemdeck/test-client';
import WebSocket from 'ws';
import { BASE_URL, BASE_URL_2 } from '../support/env';

/** A /ws socket on one replica: messages queued, `next(type)` waits for the next of that type. */
async function liveSocket(baseUrl: string, cookie: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin: baseUrl } });
  const queue: Array<Record<string, unknown>> = [];
  const waiters: Array<{ type: string; resolve: (m: Record<string, unknown>) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const index = waiters.findIndex((w) => w.type === message.type);
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
    else queue.push(message);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = (type: string, timeoutMs = 5000): Promise<Record<string, unknown>> => {
    const index = queue.findIndex((m) => m.type === type);
    if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = { type, resolve };
      waiters.push(waiter);
      setTimeout(() => {
        const at = waiters.indexOf(waiter);
        if (at >= 0) waiters.splice(at, 1);
        reject(new Error(`no ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
    });
  };
  const welcome = await next('welcome');
  return { socket, next, welcome, queue, send: (message: object) => socket.send(JSON.stringify(message)) };
}

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
    live.socket.close();
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
