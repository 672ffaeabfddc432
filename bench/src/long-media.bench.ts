/**
 * Long-media benchmark (not a test): starts the real stack on the test ports, signs in, and uploads
 *   - the evaluation set's 4-minute song (16-bit WAV), for the bytes its four stems cost,
 *   - a 500 MB WAV (16-bit stereo 44.1 kHz, just under the upload limit: 49 minutes),
 *   - a 1-hour MP3 (192 kb/s) and
 *   - a 1-hour MP4 (AAC 192 kb/s with a tiny 1 fps video track),
 * each made with ffmpeg by looping the evaluation set's 4-minute song (a synthetic song without it).
 * For each it samples, every 100 ms, the RSS of the media service's own process (worker threads
 * included) and, separately, the summed RSS of its ffmpeg children, from before the upload until 30 s
 * after the four stems are stored, and reports: idle RSS before, peak during ingest (upload sent to
 * answered, which now covers only the content check) and separation, RSS 30 s after the job, and the times
 * to the upload answer (the content check: ffprobe and the first quarter second of sound), the analysis
 * (`project_analysed`, sent by the project's first job when its one decode ends), the first seconds and
 * all four stems.
 * Goals: peak media RSS ≤ 1.5 GB whatever the length, back near idle within 30 s, a 1-hour song's
 * stems within 2 minutes. Run: npm run bench:long-media [-- --only song|wav|mp3|mp4] [--engine hybrid]
 *
 * With `--engine hybrid` the stack runs the hybrid engine on the project's generated test model (a small
 * convolution with HTDemucs's window contract: 1 s windows, 25 % overlap) and, once the fast stems are
 * stored, each song is separated again by it: the same RSS figures for the model path, which streams
 * the song through the model window by window.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadEvalSet } from './eval-set/load';
import { MIXTURE_FILE } from './eval-set/meta';
import { signInAt, type SignedInAgent } from '@stemdeck/test-client';

const ROOT = join(__dirname, '..', '..');
const SAMPLE_MS = 100;
const AFTER_JOB_MS = 30_000;

interface Stack {
  publicUrl: string;
  dataDir: string;
}

interface Input {
  name: string;
  fileName: string;
  render: (source: string[], path: string) => string[];
}

const INPUTS: Input[] = [
  {
    name: 'song',
    fileName: 'song-4min.wav',
    // The evaluation set's 4-minute song itself: the bytes its four stems cost.
    render: (source, path) => [...source, '-t', '240', '-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le', path],
  },
  {
    name: 'wav',
    fileName: 'long-500mb.wav',
    // 2960 s × 176 400 B/s + header = 522 MB, just under the 524 288 000-byte limit.
    render: (source, path) => [...source, '-t', '2960', '-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le', path],
  },
  {
    name: 'mp3',
    fileName: 'long-1h.mp3',
    render: (source, path) => [...source, '-t', '3600', '-ar', '44100', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '192k', path],
  },
  {
    name: 'mp4',
    fileName: 'long-1h.mp4',
    render: (source, path) => [
      ...source, '-f', 'lavfi', '-i', 'color=c=navy:size=64x64:rate=1', '-t', '3600', '-map', '0:a', '-map', '1:v',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '192k', '-ar', '44100', '-ac', '2', '-shortest', path,
    ],
  },
];

const csrf = (baseUrl: string) => ({ 'x-stemdeck-csrf': '1', origin: baseUrl });
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => Math.round(kb / 1024);

function rssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size: shared pages (ffmpeg's libraries) split between the processes mapping them. */
function pssKb(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The media process's direct children (its ffmpeg decoders and encoders). */
function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return children;
}

class RssSampler {
  readonly samples: Array<{ at: number; mediaKb: number; childrenKb: number; childrenPssKb: number; children: number }> = [];
  private timer?: NodeJS.Timeout;

  constructor(private readonly pid: number) {}

  start(): void {
    this.timer = setInterval(() => {
      const children = childPids(this.pid);
      this.samples.push({
        at: now(),
        mediaKb: rssKb(this.pid),
        childrenKb: children.reduce((sum, child) => sum + rssKb(child), 0),
        childrenPssKb: children.reduce((sum, child) => sum + pssKb(child), 0),
        children: children.length,
      });
    }, SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  peak(from: number, to: number) {
    const inRange = this.samples.filter((s) => s.at >= from && s.at <= to);
    return {
      mediaMB: mb(Math.max(0, ...inRange.map((s) => s.mediaKb))),
      ffmpegMB: mb(Math.max(0, ...inRange.map((s) => s.childrenKb))),
      ffmpegPssMB: mb(Math.max(0, ...inRange.map((s) => s.childrenPssKb))),
      ffmpegProcesses: Math.max(0, ...inRange.map((s) => s.children)),
    };
  }
}

function sourceArgs(): string[] {
  try {
    const long = loadEvalSet().find((track) => track.id.startsWith('long-'));
    if (long) return ['-stream_loop', '-1', '-i', join(long.dir, MIXTURE_FILE)];
  } catch {
    // no evaluation set
  }
  console.log('no evaluation set (npm run bench:eval-set): looping a synthetic 4-minute signal');
  return ['-f', 'lavfi', '-i', 'sine=frequency=110:duration=240,aloop=loop=-1:size=10584000', '-ac', '2'];
}

function render(stack: Stack, input: Input): string {
  const dir = join(stack.dataDir, '..', 'bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, input.fileName);
  if (!existsSync(path)) {
    const started = now();
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...input.render(sourceArgs(), path)]);
    console.log(`rendered ${input.fileName} (${Math.round(statSync(path).size / 1e6)} MB) in ${Math.round((now() - started) / 1000)} s`);
  }
  return path;
}

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

async function measure(stack: Stack, agent: SignedInAgent, input: Input, withHybrid: boolean) {
  const path = render(stack, input);
  const mediaPid = Number(readFileSync(join(stack.dataDir, 'pids', 'media.pid'), 'utf8'));
  const socket = new WebSocket(`${stack.publicUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie: agent.cookie, origin: stack.publicUrl } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const events = new Map<string, number>();
  socket.on('message', (data) => {
    const event = JSON.parse(data.toString()) as { type: string; projectId?: string; engine?: string };
    // `project_analysed` names no engine: it is the first (fast) job's, so it is kept under 'fast' too.
    const key = `${event.type}:${event.projectId}:${event.engine ?? 'fast'}`;
    if (event.projectId && !events.has(key)) events.set(key, now());
  });
  const sampler = new RssSampler(mediaPid);
  sampler.start();
  await sleep(1000);
  const idleMB = mb(rssKb(mediaPid));
  const started = now();
  const result = await postFile(stack, agent, path, input.fileName);
  if (result.status !== 201) throw new Error(`${input.fileName}: upload answered ${result.status}: ${result.body}`);
  const { project } = JSON.parse(result.body) as { project: { id: string; duration: number } };
  const deadline = now() + 15 * 60_000;
  let failed = false;
  const waitFor = async (engine: string): Promise<boolean> => {
    while (!events.has(`stems_ready:${project.id}:${engine}`) && now() < deadline) {
      if (events.has(`stems_failed:${project.id}:${engine}`)) return true;
      await sleep(50);
    }
    return false;
  };
  failed = await waitFor('fast');
  const readyAt = events.get(`stems_ready:${project.id}:fast`) ?? now();
  // The analysis is announced when the job's decode ends, before `stems_ready`; a short grace in case it is late.
  const analysedKey = `project_analysed:${project.id}:fast`;
  for (const graceEnd = Math.min(deadline, now() + 10_000); !failed && !events.has(analysedKey) && now() < graceEnd; ) await sleep(50);
  const stems = (await (await agent.fetch(`/api/projects/${project.id}/stems`)).json()) as Array<{ url: string }>;
  let stemBytes = 0;
  for (const stem of stems) stemBytes += Number((await agent.fetch(stem.url, { method: 'HEAD' })).headers.get('content-length'));
  await sleep(AFTER_JOB_MS);
  const afterMB = mb(rssKb(mediaPid));
  let hybrid = null;
  if (withHybrid && !failed) {
    const requestedAt = now();
    const answer = await agent.fetch(`/api/projects/${project.id}/separate`, {
      method: 'POST',
      headers: { ...csrf(stack.publicUrl), 'content-type': 'application/json' },
      body: JSON.stringify({ engine: 'hybrid' }),
    });
    if (answer.status >= 300) throw new Error(`hybrid separation answered ${answer.status}: ${await answer.text()}`);
    const hybridFailed = await waitFor('hybrid');
    const hybridReadyAt = events.get(`stems_ready:${project.id}:hybrid`) ?? now();
    await sleep(AFTER_JOB_MS);
    hybrid = {
      failed: hybridFailed,
      separationSeconds: Math.round((hybridReadyAt - requestedAt) / 100) / 10,
      separationPeak: sampler.peak(requestedAt, hybridReadyAt),
      mediaAfter30sMB: mb(rssKb(mediaPid)),
    };
  }
  sampler.stop();
  socket.close();
  const seconds = (at: number | undefined) => (at === undefined ? null : Math.round((at - result.sentAt) / 100) / 10);
  return {
    input: input.fileName,
    bytes: statSync(path).size,
    durationSeconds: project.duration,
    failed,
    stemsMB: Math.round(stemBytes / 1e5) / 10,
    uploadSeconds: Math.round((result.sentAt - started) / 100) / 10,
    // From the upload's last byte: the answer (the content check: ffprobe + the first quarter second),
    // the analysis (`project_analysed`), the first seconds, all four stems.
    answerSeconds: seconds(result.answeredAt),
    analysisSeconds: seconds(events.get(analysedKey)),
    firstSecondsSeconds: seconds(events.get(`stems_partial:${project.id}:fast`)),
    allStemsSeconds: seconds(events.get(`stems_ready:${project.id}:fast`)),
    separationSeconds: Math.round((readyAt - result.answeredAt) / 100) / 10,
    mediaIdleMB: idleMB,
    // Upload sent → answered: now only the content check (the decode and analysis run in the job, under separationPeak).
    ingestPeak: sampler.peak(started, result.answeredAt),
    separationPeak: sampler.peak(result.answeredAt, readyAt),
    mediaAfter30sMB: afterMB,
    hybrid,
  };
}

async function main(): Promise<void> {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const stackModule = (await import(join(ROOT, 'scripts', 'stack.mjs'))) as {
    stackProfile(profile: string): Stack;
    startInfra(stack: unknown, options: { fresh: boolean }): Promise<void>;
    startApps(stack: unknown, extraEnv?: Record<string, string>): Promise<void>;
    stopAll(): Promise<void>;
  };
  const withHybrid = process.argv.includes('--engine') && process.argv[process.argv.indexOf('--engine') + 1] === 'hybrid';
  const stack = stackModule.stackProfile('test');
  try {
    await stackModule.startInfra(stack, { fresh: true });
    const extraEnv: Record<string, string> = {};
    if (withHybrid) {
      const model = join(stack.dataDir, '..', 'models', 'bench-hybrid.onnx');
      mkdirSync(join(stack.dataDir, '..', 'models'), { recursive: true });
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'make-test-model.mjs'), model], { stdio: 'inherit' });
      extraEnv.STEM_MODEL_HYBRID = model;
    }
    await stackModule.startApps(stack, extraEnv);
    const agent = await signInAt(stack.publicUrl, 'demo', 'demo');
    const results = [];
    for (const input of INPUTS.filter((i) => !only || i.name === only)) {
      const figures = await measure(stack, agent, input, withHybrid);
      console.log(JSON.stringify(figures));
      results.push(figures);
    }
    console.log(JSON.stringify({ results }, null, 2));
  } finally {
    await stackModule.stopAll();
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
