import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the Dolby.io Media API (the shapes in services/jobs/src/providers/dolby-media.client.ts,
 * from https://docs.dolby.io/media-apis/reference). Records every request; `mode` picks a documented failure.
 */
export type DolbyMode = 'ok' | 'auth-refused' | 'job-failed' | 'never-finishes' | 'flaky-5xx';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface DolbyContractServer {
  url: string;
  mode: DolbyMode;
  requests: RecordedRequest[];
  uploads: Map<string, Buffer>;
  /** What GET /media/output serves. */
  result: Buffer;
  close(): Promise<void>;
}

export const DOLBY_APP_KEY = 'test-key';
export const DOLBY_APP_SECRET = 'test-secret';
export const DOLBY_TOKEN = 'token-1';

export async function startDolbyContractServer(): Promise<DolbyContractServer> {
  const state: Omit<DolbyContractServer, 'url' | 'close'> = {
    mode: 'ok',
    requests: [],
    uploads: new Map(),
    result: Buffer.from('mastered-audio-bytes'),
  };
  let polls = 0;
  let failedOnce = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      state.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body: body.toString() });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const bearer = req.headers.authorization === `Bearer ${DOLBY_TOKEN}`;
      if (req.method === 'POST' && url.pathname === '/v1/auth/token') {
        const basic = `Basic ${Buffer.from(`${DOLBY_APP_KEY}:${DOLBY_APP_SECRET}`).toString('base64')}`;
        if (state.mode === 'auth-refused' || req.headers.authorization !== basic) return json(401, { error: 'invalid_client' });
        return json(200, { access_token: DOLBY_TOKEN, token_type: 'Bearer', expires_in: 1800 });
      }
      if (url.pathname.startsWith('/upload/') && req.method === 'PUT') {
        state.uploads.set(decodeURIComponent(url.pathname.slice('/upload/'.length)), body);
        res.writeHead(200).end();
        return;
      }
      if (!bearer) return json(401, { type: '/problems/unauthorized', title: 'Unauthorized' });
      if (req.method === 'POST' && url.pathname === '/media/input') {
        const { url: dlb } = JSON.parse(body.toString()) as { url: string };
        return json(200, { url: `${address()}/upload/${encodeURIComponent(dlb)}` });
      }
      if (req.method === 'POST' && (url.pathname === '/media/master' || url.pathname === '/media/enhance')) {
        if (state.mode === 'flaky-5xx' && !failedOnce) {
          failedOnce = true;
          return json(503, { title: 'Service Unavailable' });
        }
        polls = 0;
        return json(200, { job_id: 'job-1' });
      }
      if (req.method === 'GET' && (url.pathname === '/media/master' || url.pathname === '/media/enhance')) {
        polls++;
        if (state.mode === 'job-failed') {
          return json(200, { path: url.pathname, status: 'Failed', progress: 40, error: { type: '/problems/validation-error', title: 'Invalid input', detail: 'The input file has no audio stream' } });
        }
        if (state.mode === 'never-finishes' || polls < 3) return json(200, { path: url.pathname, status: 'Running', progress: Math.min(90, polls * 30) });
        return json(200, { path: url.pathname, status: 'Success', progress: 100, result: {} });
      }
      if (req.method === 'GET' && url.pathname === '/media/output') {
        res.writeHead(302, { location: `${address()}/download/result` }).end();
        return;
      }
      if (req.method === 'GET' && url.pathname === '/download/result') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(state.result);
        return;
      }
      json(404, { title: 'Not Found' });
    });
  });
  const address = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: address(),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}
