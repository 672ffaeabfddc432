import express from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveFrontend } from './serve-frontend';

describe('serveFrontend', () => {
  let root: string;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'stemdeck-frontend-'));
    writeFileSync(join(root, 'index.html'), '<html>the studio</html>');
    writeFileSync(join(root, 'favicon.svg'), '<svg/>');
    writeFileSync(join(root, 'ws-worker.js'), 'a worker');
    // Files a build could hold under the gateway's own paths.
    mkdirSync(join(root, 'api'));
    writeFileSync(join(root, 'api', 'projects'), 'a file, not the API');
    writeFileSync(join(root, 'readyz'), 'a file, not readiness');
    const app = express();
    serveFrontend(app, root);
    app.use((_req, res) => res.status(404).send('passed on to the API'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(async () => {
    await close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: await response.text() };
  };

  it("serves the build's files, and the page for any other path", async () => {
    expect(await get('/favicon.svg')).toEqual({ status: 200, body: '<svg/>' });
    // A file named like a gateway path, but not under one.
    expect(await get('/ws-worker.js')).toEqual({ status: 200, body: 'a worker' });
    expect(await get('/apiary')).toEqual({ status: 200, body: '<html>the studio</html>' });
    expect(await get('/studio/mixer')).toEqual({ status: 200, body: '<html>the studio</html>' });
  });

  it("passes the gateway's own paths on without serving a file there", async () => {
    for (const path of ['/api/projects', '/readyz', '/api']) expect(await get(path)).toEqual({ status: 404, body: 'passed on to the API' });
  });
});
