import { BASE_URL, CSRF } from '../support/env';
import { rawPost } from '../support/media';

describe('gateway HTTP surface', () => {
  it('/healthz answers while the process is up', async () => {
    const response = await fetch(`${BASE_URL}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks NATS, database, storage, identity provider and every service', async () => {
    const response = await fetch(`${BASE_URL}/readyz`);
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.status).toBe('ok');
    expect(Object.keys(body.checks).sort()).toEqual(
      ['database', 'identity', 'nats', 'service:export', 'service:jobs', 'service:media', 'service:sessions', 'storage'].sort(),
    );
    for (const check of Object.values(body.checks) as Array<{ status: string }>) expect(check.status).toBe('ok');
  });

  it('/readyz/replica, the orchestrator\'s probe, checks only this replica\'s own NATS and database connections', async () => {
    const response = await fetch(`${BASE_URL}/readyz/replica`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe('ok');
    expect(Object.keys(body.checks).sort()).toEqual(['database', 'nats']);
  });

  it('GET /api/auth/user is 401 JSON when signed out', async () => {
    const response = await fetch(`${BASE_URL}/api/auth/user`);
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 401, message: 'Not signed in' });
    expect(body.errorId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('unknown /api paths are 404 JSON, not the app page', async () => {
    const response = await fetch(`${BASE_URL}/api/does-not-exist`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ statusCode: 404, message: 'Cannot GET /api/does-not-exist' });
  });

  it('malformed JSON is a 400 with a message', async () => {
    const response = await fetch(`${BASE_URL}/api/projects`, { method: 'POST', headers: { ...CSRF, 'content-type': 'application/json' }, body: '{"name": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: 400, message: 'Malformed JSON in request body' });
  });

  it('a JSON body declared over 1 MB is a 413 on its headers, answered while the client is still sending', async () => {
    const declared = 64 * 1024 * 1024;
    const answer = await rawPost('/api/projects', { ...CSRF, 'content-type': 'application/json' }, { bytes: declared, fill: 0x20 }, { declareLength: true, chunkBytes: 256 * 1024 });
    if (answer === 'aborted') throw new Error('the request was cut off before any answer');
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413, message: 'Request body is too large' });
    expect(answer.sent).toBeLessThan(declared);
  });

  it('a JSON body sent in chunks with no length is a 413 once 1 MB has arrived, answered while the client is still sending', async () => {
    const total = 64 * 1024 * 1024;
    const answer = await rawPost('/api/projects', { ...CSRF, 'content-type': 'application/json' }, { bytes: total, fill: 0x20 }, { chunkBytes: 256 * 1024 });
    if (answer === 'aborted') throw new Error('the request was cut off before any answer');
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413, message: 'Request body is too large' });
    // Answered before the body's end: what the client got out first is the 1 MB, what the lingering close still
    // reads and throws away (16 MB at most) and what the socket buffers held (a busy machine: 19 MB once).
    // Read to its end, as before, all 64 MB would be sent.
    expect(answer.sent).toBeLessThan(total);
  });

  it('a JSON body sent in chunks under 1 MB is read as usual', async () => {
    const response = await fetch(`${BASE_URL}/api/projects`, {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: new Blob(['{"name": "', ' '.repeat(900 * 1024), '"}']).stream(),
      duplex: 'half',
    } as RequestInit);
    // Read to its end and parsed: signed out, the request gets as far as the sign-in check.
    expect(response.status).toBe(401);
  });

  it('mutations without the CSRF header or from a foreign origin are refused', async () => {
    const noHeader = await fetch(`${BASE_URL}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', origin: BASE_URL }, body: '{}' });
    expect(noHeader.status).toBe(403);
    const foreign = await fetch(`${BASE_URL}/api/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stemdeck-csrf': '1', origin: 'https://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).message).toMatch(/origin https:\/\/evil.example is not allowed/);
  });

  it('serves the single-page app for client routes and long-caches hashed assets', async () => {
    for (const path of ['/', '/app', '/music', '/no-such-page']) {
      const response = await fetch(`${BASE_URL}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<div id="root"></div>');
    }
    const html = await (await fetch(`${BASE_URL}/`)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const response = await fetch(`${BASE_URL}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/immutable/);
  });
});
