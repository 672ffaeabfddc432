import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the ASSUMED LANDR partner mastering API (no public documentation exists; the shape is
 * the one in services/jobs/src/providers/landr-mastering.client.ts). Records requests; `mode` picks a failure.
 */
export type LandrMode = 'ok' | 'auth-refused' | 'job-failed' | 'never-finishes' | 'flaky-5xx';

export interface LandrContractServer {
  url: string;
  mode: LandrMode;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  uploads: Map<string, Buffer>;
  result: Buffer;
  close(): Promise<void>;
}

export const LANDR_API_KEY = 'landr-test-key';

export async function startLandrContractServer(): Promise<LandrContractServer> {
  const state: Omit<LandrContractServer, 'url' | 'close'> = { mode: 'ok', requests: [], uploads: new Map(), result: Buffer.from('landr-master-bytes') };
  let polls = 0;
  let failedOnce = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      state.requests.push({ method: req.method ?? '', path, headers: req.headers, body: body.toString() });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'PUT' && path.startsWith('/upload/')) {
        state.uploads.set(path.slice('/upload/'.length), body);
        res.writeHead(200).end();
        return;
      }
      if (req.method === 'GET' && path === '/download/master') {
        res.writeHead(200, { 'content-type': 'audio/wav' }).end(state.result);
        return;
      }
      if (state.mode === 'auth-refused' || req.headers.authorization !== `Bearer ${LANDR_API_KEY}`) return json(401, { error: 'unauthorized' });
      if (req.method === 'POST' && path === '/v1/uploads') return json(200, { uploadUrl: `${address()}/upload/asset-1`, assetId: 'asset-1' });
      if (req.method === 'POST' && path === '/v1/masters') {
        if (state.mode === 'flaky-5xx' && !failedOnce) {
          failedOnce = true;
          return json(502, { error: 'bad gateway' });
        }
        polls = 0;
        return json(201, { id: 'master-1' });
      }
      if (req.method === 'GET' && path === '/v1/masters/master-1') {
        polls++;
        if (state.mode === 'job-failed') return json(200, { status: 'failed', progress: 20, failureReason: 'Audio is silent' });
        if (state.mode === 'never-finishes' || polls < 3) return json(200, { status: 'processing', progress: Math.min(90, polls * 30) });
        return json(200, { status: 'completed', progress: 100, downloadUrl: `${address()}/download/master` });
      }
      json(404, { error: 'not found' });
    });
  });
  const address = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: address(),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}
