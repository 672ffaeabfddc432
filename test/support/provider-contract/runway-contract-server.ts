import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for Runway's developer API as its reference documents it (the shapes the client in
 * services/jobs/src/providers/runway-video.client.ts speaks): POST /v1/text_to_video → {id}; GET /v1/tasks/{id} →
 * {id, status, progress 0–1, output [url] | failure, failureCode}; DELETE /v1/tasks/{id} cancels. Every call
 * must carry the Bearer key and X-Runway-Version. Records requests; `mode` picks a failure; `clip` is the MP4
 * the task's output url serves.
 */
export type RunwayMode = 'ok' | 'auth-refused' | 'task-failed' | 'never-finishes' | 'rate-limited-once' | 'bad-request';

export interface RunwayContractServer {
  url: string;
  mode: RunwayMode;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  clip: Buffer;
  close(): Promise<void>;
}

export const RUNWAY_API_KEY = 'runway-test-key';
export const RUNWAY_VERSION = '2024-11-06';

export async function startRunwayContractServer(): Promise<RunwayContractServer> {
  const state: Omit<RunwayContractServer, 'url' | 'close'> = { mode: 'ok', requests: [], clip: Buffer.alloc(0) };
  let polls = 0;
  let limitedOnce = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const path = req.url ?? '/';
      state.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      // The output url is a signed storage url of its own: no API key.
      if (req.method === 'GET' && path === '/outputs/task-1.mp4') {
        res.writeHead(200, { 'content-type': 'video/mp4' }).end(state.clip);
        return;
      }
      if (state.mode === 'auth-refused' || req.headers.authorization !== `Bearer ${RUNWAY_API_KEY}`) return json(401, { error: 'Invalid API key' });
      if (req.headers['x-runway-version'] !== RUNWAY_VERSION) return json(400, { error: 'Missing or invalid X-Runway-Version header' });
      if (req.method === 'POST' && path === '/v1/text_to_video') {
        if (state.mode === 'rate-limited-once' && !limitedOnce) {
          limitedOnce = true;
          return json(429, { error: 'Too many requests' });
        }
        const request = JSON.parse(body || '{}') as { promptText?: string; ratio?: string; duration?: number; model?: string };
        if (state.mode === 'bad-request' || !request.promptText || !request.model || request.ratio !== '1280:720' || !(Number(request.duration) >= 2 && Number(request.duration) <= 10)) {
          return json(400, { error: 'Validation of body failed', issues: [{ path: ['promptText'] }] });
        }
        polls = 0;
        return json(200, { id: 'task-1' });
      }
      if (path === '/v1/tasks/task-1' && req.method === 'DELETE') {
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'GET' && path === '/v1/tasks/task-1') {
        polls++;
        const base = { id: 'task-1', createdAt: '2026-11-23T21:00:00.000Z' };
        if (state.mode === 'task-failed') return json(200, { ...base, status: 'FAILED', failure: 'The prompt was flagged by content moderation', failureCode: 'SAFETY.INPUT.TEXT' });
        if (polls === 1) return json(200, { ...base, status: 'PENDING' });
        if (state.mode === 'never-finishes' || polls < 4) return json(200, { ...base, status: 'RUNNING', progress: Math.min(0.9, (polls - 1) * 0.4) });
        return json(200, { ...base, status: 'SUCCEEDED', output: [`${address()}/outputs/task-1.mp4`] });
      }
      json(404, { error: 'Not found' });
    });
  });
  const address = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: address(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
