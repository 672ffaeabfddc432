/**
 * Pipeline benchmark (not a test): starts the real stack on the test ports, signs in, then measures
 *  1. the gateway's peak RSS while a 500 MB upload streams through it into object storage (goal ≤ 150 MB);
 *  2. time from "upload body sent" to the first playable stem of a 30-second clip (goal ≤ 1 s): the upload
 *     answer (the content check: ffprobe + the first quarter second of sound), the analysis (`project_analysed`,
 *     sent by the project's first job when its one decode ends), the progressive first seconds of the stems
 *     (`stems_partial`), the first 64 kB of a stem fetched from the gateway, and the whole stems (`stems_ready`).
 * Run: npm run bench:pipeline
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync, createReadStream, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadEvalSet } from './eval-set/load';
import { MIXTURE_FILE } from './eval-set/meta';
import { signInAt, type SignedInAgent } from '@stemdeck/test-client';

const ROOT = join(__dirname, '..', '..');
const CLIP_RUNS = 5;
const UPLOAD_BYTES = 500 * 1024 * 1024;

interface Stack {
  publicUrl: string;
  dataDir: string;
}

const csrf = (baseUrl: string) => ({ 'x-stemdeck-csrf': '1', origin: baseUrl });
const now = () => Number(process.hrtime.bigint()) / 1e6;

function statusOf(pid: number): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const match = /^(VmRSS|VmHWM):\s+(\d+) kB/.exec(line);
    if (match) fields[match[1]!] = Number(match[2]) / 1024;
  }
  return fields;
}

/** Streams a file as multipart with node:http; resolves when the answer arrives, with when the body finished sending. */
function postFile(stack: Stack, agent: SignedInAgent, path: string, fileName: string) {
  const boundary = '----stemdeck-bench';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${fileName}"\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/api/upload', stack.publicUrl);
  return new Promise<{ status: number; body: string; sentAt: number; answeredAt: number }>((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        ...csrf(stack.publicUrl),
        cookie: agent.cookie,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + statSync(path).size + tail.length,
      },
    });
    let sentAt = 0;
    req.on('finish', () => (sentAt = now()));
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentAt, answeredAt: now() }));
    });
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
}

async function measureUploadRss(stack: Stack, agent: SignedInAgent) {
  const path = join(stack.dataDir, '..', 'bench', 'upload-500mb.bin');
  mkdirSync(join(path, '..'), { recursive: true });
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(1024 * 1024, 0x41);
  for (let written = 0; written < UPLOAD_BYTES; written += block.length) writeSync(fd, block);
  closeSync(fd);
  const gatewayPid = Number(readFileSync(join(stack.dataDir, 'pids', 'gateway.pid'), 'utf8'));
  const before = statusOf(gatewayPid);
  writeFileSync(`/proc/${gatewayPid}/clear_refs`, '5'); // resets VmHWM so the peak is this upload's
  let peakSampled = 0;
  const sampler = setInterval(() => (peakSampled = Math.max(peakSampled, statusOf(gatewayPid).VmRSS ?? 0)), 50);
  const started = now();
  const result = await postFile(stack, agent, path, 'upload-500mb.bin');
  clearInterval(sampler);
  const after = statusOf(gatewayPid);
  return {
    uploadedMB: UPLOAD_BYTES / 1024 / 1024,
    status: result.status,
    seconds: Math.round((result.answeredAt - started) / 100) / 10,
    gatewayRssBeforeMB: Math.round(before.VmRSS ?? 0),
    gatewayPeakRssMB: Math.round(Math.max(after.VmHWM ?? 0, peakSampled)),
  };
}

/** A 30 s mp3 cut from the evaluation set's first song (a sine when the set has not been generated). */
function renderClip(stack: Stack): string {
  const path = join(stack.dataDir, '..', 'bench', 'clip-30s.mp3');
  mkdirSync(join(path, '..'), { recursive: true });
  let source = ['-f', 'lavfi', '-i', 'sine=frequency=220:duration=30', '-ac', '2'];
  try {
    const [track] = loadEvalSet();
    source = ['-i', join(track!.dir, MIXTURE_FILE), '-t', '30'];
    console.log(`30 s clip from the evaluation set: ${track!.id}`);
  } catch {
    console.log('no evaluation set (npm run bench:eval-set): using a 30 s sine');
  }
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...source, '-b:a', '192k', path]);
  return path;
}

async function measureFirstStem(stack: Stack, agent: SignedInAgent) {
  const clip = renderClip(stack);
  const socket = new WebSocket(`${stack.publicUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie: agent.cookie, origin: stack.publicUrl } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const seen = new Map<string, { at: number; url: string }>();
  socket.on('message', (data) => {
    const event = JSON.parse(data.toString()) as { type: string; projectId?: string; stems?: Array<{ url: string }> };
    if ((event.type === 'stems_partial' || event.type === 'stems_ready') && event.projectId) {
      seen.set(`${event.type}:${event.projectId}`, { at: now(), url: event.stems![0]!.url });
    }
    if (event.type === 'project_analysed' && event.projectId && !seen.has(`${event.type}:${event.projectId}`)) {
      seen.set(`${event.type}:${event.projectId}`, { at: now(), url: '' });
    }
  });
  const until = async (key: string) => {
    while (!seen.has(key)) await new Promise((r) => setTimeout(r, 2));
    return seen.get(key)!;
  };
  const runs = [];
  for (let run = 0; run < CLIP_RUNS; run++) {
    const result = await postFile(stack, agent, clip, 'clip-30s.mp3');
    if (result.status !== 201) throw new Error(`upload answered ${result.status}: ${result.body}`);
    const projectId = (JSON.parse(result.body) as { project: { id: string } }).project.id;
    const partial = await until(`stems_partial:${projectId}`);
    const stem = await agent.fetch(partial.url, { headers: { range: 'bytes=0-65535' } });
    await stem.arrayBuffer();
    const playableAt = now();
    const ready = await until(`stems_ready:${projectId}`);
    const analysed = await until(`project_analysed:${projectId}`);
    runs.push({
      uploadAnswerMs: Math.round(result.answeredAt - result.sentAt),
      analysisMs: Math.round(analysed.at - result.sentAt),
      firstSecondsMs: Math.round(partial.at - result.sentAt),
      firstStemBytesMs: Math.round(playableAt - result.sentAt),
      wholeStemsMs: Math.round(ready.at - result.sentAt),
    });
  }
  socket.close();
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    runs,
    median: {
      uploadAnswerMs: median(runs.map((r) => r.uploadAnswerMs)),
      analysisMs: median(runs.map((r) => r.analysisMs)),
      firstSecondsMs: median(runs.map((r) => r.firstSecondsMs)),
      firstStemBytesMs: median(runs.map((r) => r.firstStemBytesMs)),
      wholeStemsMs: median(runs.map((r) => r.wholeStemsMs)),
    },
  };
}

async function main(): Promise<void> {
  const stackModule = (await import(join(ROOT, 'scripts', 'stack.mjs'))) as {
    prepare(options?: { build?: boolean }): Promise<void>;
    stackProfile(profile: string): Stack & Record<string, unknown>;
    startInfra(stack: unknown, options: { fresh: boolean }): Promise<void>;
    startApps(stack: unknown, env?: Record<string, string>): Promise<void>;
    stopAll(): Promise<void>;
  };
  const stack = stackModule.stackProfile('test');
  try {
    await stackModule.startInfra(stack, { fresh: true });
    await stackModule.startApps(stack);
    const agent = await signInAt(stack.publicUrl, 'demo', 'demo');
    const firstStem = await measureFirstStem(stack, agent);
    console.log('first playable stem, 30 s clip:', JSON.stringify(firstStem));
    const upload = await measureUploadRss(stack, agent);
    console.log('500 MB upload through the gateway:', JSON.stringify(upload));
    console.log(JSON.stringify({ firstStem: firstStem.median, upload }, null, 2));
  } finally {
    await stackModule.stopAll();
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
