import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import WebSocket from 'ws';
import { BASE_URL, CSRF } from './env';
import type { SignedInAgent } from './sign-in';

const MEDIA_DIR = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'fixtures');

/**
 * Renders a test clip with ffmpeg: a bass tone, a higher tone and a 2 Hz noise pulse (a beat), stereo
 * 44.1 kHz, encoded by the extension's format. `video: true` adds a test-pattern picture track.
 */
export function makeClip(fileName: string, seconds: number, options: { video?: boolean; codecArgs?: string[] } = {}): string {
  mkdirSync(MEDIA_DIR, { recursive: true });
  const path = join(MEDIA_DIR, fileName);
  if (existsSync(path)) return path;
  const inputs = [
    '-f', 'lavfi', '-i', `sine=frequency=110:sample_rate=44100:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=660:sample_rate=44100:duration=${seconds}`,
    '-f', 'lavfi', '-i', `anoisesrc=color=white:amplitude=0.5:sample_rate=44100:duration=${seconds},volume='if(lt(mod(t,0.5),0.05),1,0)':eval=frame`,
  ];
  const video = options.video ? ['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=15:duration=${seconds}`] : [];
  const mix = '[0:a][1:a][2:a]amix=inputs=3:normalize=0,pan=stereo|c0=c0|c1=c0[a]';
  const maps = options.video ? ['-map', '[a]', '-map', '3:v', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'] : ['-map', '[a]'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, ...video, '-filter_complex', mix, ...maps, ...(options.codecArgs ?? []), path]);
  return path;
}

export function fixturePath(fileName: string): string {
  mkdirSync(MEDIA_DIR, { recursive: true });
  return join(MEDIA_DIR, fileName);
}

/** POST /api/upload as the panels do: multipart with the file in `audio` (or `file`). */
export async function upload(agent: SignedInAgent, path: string, options: { field?: string; fileName?: string } = {}): Promise<Response> {
  const form = new FormData();
  form.append(options.field ?? 'audio', await openAsBlob(path), options.fileName ?? path.split('/').pop());
  return agent.fetch('/api/upload', { method: 'POST', headers: CSRF, body: form });
}

/** The object storage the stack writes to (the platform's own adapter), for proving what was (not) kept. */
export const storage = new ObjectStorageAdapter({
  S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:19000',
  S3_ACCESS_KEY: process.env.S3_ACCESS_KEY ?? 'stemdeck',
  S3_SECRET_KEY: process.env.S3_SECRET_KEY ?? 'stemdeck-dev-secret',
  S3_BUCKET: process.env.S3_BUCKET ?? 'stemdeck',
  S3_REGION: process.env.S3_REGION ?? 'us-east-1',
});

export const objectKeys = (prefix: string): Promise<string[]> => storage.listKeys(prefix);
export const incompleteUploads = (prefix: string): Promise<string[]> => storage.listIncompleteUploads(prefix);

export async function ownerIdOf(agent: SignedInAgent): Promise<string> {
  return ((await (await agent.fetch('/api/auth/user')).json()) as { id: string }).id;
}

export type LiveEvent = Record<string, unknown> & { type: string };

/** A signed-in /ws connection that records every message; `waitFor` resolves on the first match. */
export async function listen(agent: SignedInAgent) {
  const socket = new WebSocket(`${BASE_URL.replace(/^http/, 'ws')}/ws`, { headers: { cookie: agent.cookie, origin: BASE_URL } });
  const seen: LiveEvent[] = [];
  const waiters: Array<{ match: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }> = [];
  socket.on('message', (data) => {
    const event = JSON.parse(data.toString()) as LiveEvent;
    seen.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    seen,
    waitFor(match: (e: LiveEvent) => boolean, timeoutMs = 20_000): Promise<LiveEvent> {
      const earlier = seen.find(match);
      if (earlier) return Promise.resolve(earlier);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching live event within ${timeoutMs} ms; saw ${JSON.stringify(seen.map((e) => e.type))}`)), timeoutMs);
        waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      });
    },
    send: (message: LiveEvent) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
}

export interface StoredAudioFormat {
  contentType: string | null;
  codec: string;
  bitsPerRawSample: number;
  sampleRate: number;
  channels: number;
  /** Frames ffmpeg decodes from the whole file (a FLAC streamed to storage has no length in its header). */
  frames: number;
  bytes: number;
}

/** Downloads an audio url of the studio and reports what ffmpeg finds in it. */
export async function storedAudioFormat(agent: SignedInAgent, url: string): Promise<StoredAudioFormat> {
  const response = await agent.fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  const path = fixturePath(`download-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  writeFileSync(path, bytes);
  try {
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', path]).toString()) as {
      streams: Array<{ codec_name: string; bits_per_raw_sample?: string; sample_rate: string; channels: number }>;
    };
    const stream = probe.streams[0]!;
    const decodedBytes = Number(execFileSync('sh', ['-c', `ffmpeg -v error -i "${path}" -f s16le -ac 1 - | wc -c`]).toString().trim());
    return {
      contentType: response.headers.get('content-type'),
      codec: stream.codec_name,
      bitsPerRawSample: Number(stream.bits_per_raw_sample ?? 0),
      sampleRate: Number(stream.sample_rate),
      channels: stream.channels,
      frames: decodedBytes / 2,
      bytes: bytes.length,
    };
  } finally {
    rmSync(path, { force: true });
  }
}

export interface SeparatedStem {
  id: string;
  type: string;
  url: string;
  volume: number;
  muted: boolean;
  soloed: boolean;
}

/**
 * Uploads a clip and waits until its fast stems are stored: a project of the test's own, so a test that
 * changes it (mix, engine, name, deletion) leaves every other test's project as it was.
 */
export async function uploadSeparated(agent: SignedInAgent, path: string, options: { fileName?: string } = {}): Promise<{ projectId: string; stems: SeparatedStem[] }> {
  const live = await listen(agent);
  try {
    const response = await upload(agent, path, options);
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    const projectId = ((await response.json()) as { project: { id: string } }).project.id;
    await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === projectId, 30_000);
    const stems = (await (await agent.fetch(`/api/projects/${projectId}/stems`)).json()) as SeparatedStem[];
    return { projectId, stems };
  } finally {
    live.close();
  }
}

export interface RawAnswer {
  status: number;
  body: string;
  /** Bytes of the body sent when the answer came. */
  sent: number;
}

export interface RawPostOptions {
  /** Destroys the request once this much of the body is sent (the answer is then 'aborted'). */
  abortAfter?: number;
  /** Sends Content-Length (else the body goes chunked). */
  declareLength?: boolean;
  /** The body goes out in writes of this size (1 MB unless given). */
  chunkBytes?: number;
}

/**
 * POSTs `head`, `bytes` bytes of `fill` and `tail` with node:http, writing only while no answer has come, so a
 * test can watch the answer arrive mid-body or abort; 'aborted' when the connection ended without an answer.
 */
export function rawPost(
  path: string,
  headers: Record<string, string | number>,
  body: { head?: Buffer; bytes: number; tail?: Buffer; fill?: number },
  options: RawPostOptions = {},
): Promise<RawAnswer | 'aborted'> {
  const url = new URL(path, BASE_URL);
  const [head, tail] = [body.head ?? Buffer.alloc(0), body.tail ?? Buffer.alloc(0)];
  return new Promise((resolve) => {
    const allHeaders = options.declareLength ? { ...headers, 'content-length': head.length + body.bytes + tail.length } : headers;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: allHeaders });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text, sent });
        // Answered: the rest of the body is not coming.
        req.destroy();
      });
    });
    req.on('error', () => !answered && resolve('aborted'));
    const chunk = Buffer.alloc(options.chunkBytes ?? 1024 * 1024, body.fill ?? 0);
    req.write(head);
    const pump = () => {
      while (sent < body.bytes && !answered) {
        if (options.abortAfter !== undefined && sent >= options.abortAfter) {
          req.destroy();
          return resolve('aborted');
        }
        const size = Math.min(chunk.length, body.bytes - sent);
        sent += size;
        if (!req.write(chunk.subarray(0, size))) return void req.once('drain', pump);
      }
      if (!answered && sent >= body.bytes) req.end(tail);
    };
    pump();
  });
}

/** POSTs /api/upload: a multipart body whose file is `fileBytes` zeros (see rawPost). */
export function rawUpload(agent: SignedInAgent, fileBytes: number, options: RawPostOptions = {}) {
  const boundary = '----stemdeck-test-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="huge.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = { ...CSRF, cookie: agent.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` };
  return rawPost('/api/upload', headers, { head, bytes: fileBytes, tail }, options);
}
