import { BASE_URL, CSRF } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';
import { eventually, infra, waitForStudioReady } from '../support/stack-control';

const json = { ...CSRF, 'content-type': 'application/json' };

/**
 * Promise: while the database is down, requests answer 503 with a plain message (not a 500, not a hang); once
 * it is back, everything recovers by itself: a read and a write succeed and /readyz is 200 again.
 */
describe('fault: database restarted', () => {
  let demo: SignedInAgent;
  let projectId: string;

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
    const created = await demo.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Before the outage', originalFile: 'take.wav', duration: 30 }) });
    expect(created.status).toBe(201);
    projectId = ((await created.json()) as { id: string }).id;
  });

  afterAll(async () => {
    await infra('ferretdb', 'start');
    await waitForStudioReady();
  }, 120_000);

  /** One request's status, message and how long it took to answer. */
  async function timed(path: string, init?: RequestInit) {
    const started = Date.now();
    const response = await demo.fetch(path, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let message = text;
    try {
      message = (JSON.parse(text) as { message: string }).message;
    } catch {}
    return { status: response.status, message, ms: Date.now() - started };
  }

  it('answers 503 with a plain message during the outage and recovers by itself', async () => {
    await infra('ferretdb', 'stop');
    try {
      const readyz = await fetch(`${BASE_URL}/readyz`, { signal: AbortSignal.timeout(10_000) });
      expect(readyz.status).toBe(503);
      expect(((await readyz.json()) as { checks: Record<string, { status: string }> }).checks.database?.status).not.toBe('ok');

      const read = await timed('/api/projects');
      const write = await timed(`/api/projects/${projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: 'During the outage' }) });
      for (const answer of [read, write]) {
        expect(answer).toMatchObject({ status: 503, message: expect.stringMatching(/database.*try again/i) });
        expect(answer.message).not.toMatch(/Mongo|ECONN|127\.0\.0\.1|buffering/);
        // Answered, not left hanging: within the time a person waits for a page.
        expect(answer.ms).toBeLessThan(15_000);
      }
    } finally {
      await infra('ferretdb', 'start');
    }

    // No reconnect by hand: the same session reads and writes again within a few seconds.
    const renamed = await eventually(
      'a write after the restart',
      async () => {
        const answer = await timed(`/api/projects/${projectId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: 'After the outage' }) });
        return answer.status === 200 ? answer : undefined;
      },
      30_000,
    );
    expect(renamed.status).toBe(200);
    const projects = (await (await demo.fetch('/api/projects')).json()) as Array<{ id: string; name: string }>;
    expect(projects.find((p) => p.id === projectId)?.name).toBe('After the outage');
    await waitForStudioReady(30_000);
  }, 90_000);
});
