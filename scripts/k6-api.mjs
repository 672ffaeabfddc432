// `npm run load:api`: the REST API under load with large uploads beside it. Starts the studio on the test ports
// with fresh data (both gateway replicas), makes its load users in that Keycloak through the admin API, signs
// each in through the real login form, uploads a short song per user and waits for its stems, then runs
// load/api.k6.js (k6, installed by scripts/k6-install.mjs): API_VUS virtual users reading projects and stems
// and changing stem volumes for 2 minutes across both replicas, and meanwhile UPLOADS ~50 MB WAV uploads at
// once. It samples every stack process's CPU and RSS from /proc and the separation backlog from NATS
// monitoring once a second until the backlog has drained, prints the figures, writes them under
// .data/bench/k6-api/ and stops everything. Loopback only; it ends by itself. Exit 1 when a goal is missed
// (an API error, API p99 over LOAD_GOAL_P99_MS, a failed upload, a gateway replica over the RSS goal, the
// backlog not drained), after printing every figure. The database's work is read from FerretDB's own
// command counters (its debug port), to say what each API request costs it.
//
//   npm run load:api                                    200 VUs for 2 minutes, 20 × 50 MB uploads
//   LOAD_VUS=20 LOAD_DURATION_S=20 LOAD_UPLOADS=2 npm run load:api      a small, short try
//   node scripts/k6-api.mjs --attach                    against a running `npm start` (see k6-collab.mjs)
//
// Other knobs: LOAD_USERS (40: at most 5 VUs per user keeps each user's changes at about half the gateway's
// per-user limit of 600 a minute), LOAD_THINK_MS (1000), LOAD_UPLOAD_MB (50), LOAD_UPLOAD_START_S (15),
// LOAD_UPLOAD_TIMEOUT_S (1200), LOAD_GOAL_P99_MS (100), LOAD_GOAL_RSS_MB (300).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureK6 } from './k6-install.mjs';
import { adminToken, api, ensureUsers, fixed, loadAverage, logger, mapConcurrently, metric, openLoadStack, runK6, runLoadMain, signInUsers, stackPids, startSampler, usage, usageLines } from './k6-support.mjs';
import { prepare, ROOT, serviceHealthPort, stopAll } from './stack.mjs';

const attach = process.argv.includes('--attach');
const API_VUS = Number(process.env.LOAD_VUS ?? 200);
const USERS = Number(process.env.LOAD_USERS ?? 40);
const DURATION_MS = Number(process.env.LOAD_DURATION_S ?? 120) * 1000;
const THINK_MS = Number(process.env.LOAD_THINK_MS ?? 1000);
const UPLOADS = Number(process.env.LOAD_UPLOADS ?? 20);
const UPLOAD_MB = Number(process.env.LOAD_UPLOAD_MB ?? 50);
const UPLOAD_START_MS = Number(process.env.LOAD_UPLOAD_START_S ?? 15) * 1000;
const UPLOAD_TIMEOUT_MS = Number(process.env.LOAD_UPLOAD_TIMEOUT_S ?? 1200) * 1000;
const GOAL_P99_MS = Number(process.env.LOAD_GOAL_P99_MS ?? 100);
/** Visits starting this long into the API load are also timed apart (printed beside the goal, not instead of it). */
const STEADY_AFTER_MS = 5000;
const GOAL_RSS_MB = Number(process.env.LOAD_GOAL_RSS_MB ?? 300);
const RATE_LIMIT_PER_MINUTE = 600; // the gateway's default RATE_LIMIT_REQUESTS_PER_MINUTE (services/gateway/src/limits)
const SONG_SECONDS = 12; // each user's project: long enough (≥ 10 s) for progressive first stems
const BACKLOG_DRAIN_TIMEOUT_MS = 120_000;
const OUT_DIR = join(ROOT, '.data', 'bench', 'k6-api');
const MEDIA_DIR = join(OUT_DIR, 'media');
const SEPARATION = { stream: 'STEMDECK_SEPARATION', consumer: 'media-separation' };

const log = logger('load:api');

if (!(API_VUS >= 1 && USERS >= 1 && UPLOADS >= 0 && DURATION_MS >= 1000)) {
  log('LOAD_VUS and LOAD_USERS must be at least 1, LOAD_UPLOADS at least 0, LOAD_DURATION_S at least 1');
  process.exit(2);
}

// ---------------------------------------------------------------- the music, made here with ffmpeg

/**
 * A 32 s loop of real-ish music at 120 BPM, A minor, stereo 44.1 kHz: kick on every beat, snare on 2 and 4,
 * hi-hats on eighths (noise, right of centre), a plucked bass following Am–F–C–G, a pad chord over it (left
 * of centre) and a vibrato lead with a pentatonic phrase in three bars of four — so every stem has something.
 */
function makeLoop(path) {
  const beat = 'mod(t,0.5)';
  const bar = 'floor(mod(t,8)/2)';
  const root = `55*pow(2,if(eq(${bar},0),0,if(eq(${bar},1),-4,if(eq(${bar},2),3,-2)))/12)`;
  const third = `if(eq(${bar},0),3,if(eq(${bar},1),4,if(eq(${bar},2),4,4)))`;
  const kick = `0.8*sin(2*PI*(45+90*exp(-${beat}*30))*${beat})*exp(-${beat}*9)`;
  const snare = `0.35*(2*random(0)-1)*exp(-mod(t-0.5,1)*18)*gte(mod(t,1),0.5)`;
  const hat = `0.12*(2*random(1)-1)*exp(-mod(t,0.25)*70)`;
  const bass = `0.3*sin(2*PI*${root}*t)*(0.55+0.45*exp(-mod(t,0.25)*10))`;
  const pad = `0.05*(sin(2*PI*4*${root}*t)+sin(2*PI*4*${root}*pow(2,${third}/12)*t)+sin(2*PI*4*${root}*pow(2,7/12)*t))`;
  const note = 'if(eq(mod(floor(t*2),5),0),0,if(eq(mod(floor(t*2),5),1),3,if(eq(mod(floor(t*2),5),2),5,if(eq(mod(floor(t*2),5),3),7,10))))';
  const lead = `0.14*lt(mod(t,32),24)*sin(2*PI*440*pow(2,${note}/12)*(t+0.0015*sin(2*PI*5.5*t)))*(0.4+0.6*exp(-mod(t,0.5)*3))`;
  const left = `${kick}+${snare}+0.5*${hat}+${bass}+1.4*${pad}+${lead}`;
  const right = `${kick}+${snare}+1.5*${hat}+${bass}+0.6*${pad}+${lead}`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc='${left}|${right}':s=44100:d=32`, '-af', 'alimiter=limit=0.9', '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags:a', '+bitexact', path]);
}

/** The upload file (~UPLOAD_MB MiB of 16-bit WAV: the loop repeated) and the users' short song, made once. */
function prepareMedia() {
  mkdirSync(MEDIA_DIR, { recursive: true });
  const loop = join(MEDIA_DIR, 'loop-32s.wav');
  if (!existsSync(loop)) makeLoop(loop);
  const song = join(MEDIA_DIR, `song-${SONG_SECONDS}s.wav`);
  if (!existsSync(song)) execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', loop, '-t', String(SONG_SECONDS), '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags:a', '+bitexact', song]);
  const upload = join(MEDIA_DIR, `upload-${UPLOAD_MB}mb.wav`);
  if (UPLOADS > 0 && !existsSync(upload)) {
    const frames = Math.floor((UPLOAD_MB * 1024 * 1024 - 44) / 4);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '-1', '-i', loop, '-af', `atrim=end_sample=${frames}`, '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags:a', '+bitexact', upload]);
  }
  return { song, upload };
}

// ---------------------------------------------------------------- the users and their projects

/** Uploads the short song as `user` and waits until its fast stems are stored; the project and stem ids. */
async function projectWithStems(user, baseUrl, songPath) {
  const form = new FormData();
  form.append('audio', new Blob([readFileSync(songPath)], { type: 'audio/wav' }), `${user.username}-song.wav`);
  const response = await user.agent.fetch('/api/upload', { method: 'POST', headers: { 'x-stemdeck-csrf': '1', origin: baseUrl }, body: form });
  if (response.status !== 201) throw new Error(`${user.username}'s song upload answered ${response.status}: ${await response.text()}`);
  const projectId = (await response.json()).project.id;
  const deadline = Date.now() + 180_000;
  for (;;) {
    const project = await api(user.agent, baseUrl, 'GET', `/api/projects/${projectId}`);
    const job = project.jobs?.find((entry) => entry.engine === 'fast');
    if (job?.status === 'failed') throw new Error(`${user.username}'s song failed to separate: ${job.error}`);
    if (job?.status === 'completed' && project.activeEngine) break;
    if (Date.now() > deadline) throw new Error(`${user.username}'s song had no stems after 3 minutes (job ${JSON.stringify(job)})`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const stems = await api(user.agent, baseUrl, 'GET', `/api/projects/${projectId}/stems`);
  if (stems.length !== 4) throw new Error(`${user.username}'s song has ${stems.length} stems, not 4`);
  return { projectId, stemIds: stems.map((stem) => stem.id) };
}

// ---------------------------------------------------------------- the separation backlog (NATS monitoring)

/** The separation consumer's backlog: waiting (num_pending) and handed out, not yet acknowledged (num_ack_pending). */
async function separationBacklog(monitorUrl) {
  const response = await fetch(`${monitorUrl}/jsz?accounts=true&streams=true&consumers=true`, { signal: AbortSignal.timeout(2000) });
  const jsz = await response.json();
  for (const account of jsz.account_details ?? []) {
    for (const stream of account.stream_detail ?? []) {
      if (stream.name !== SEPARATION.stream) continue;
      const consumer = (stream.consumer_detail ?? []).find((entry) => entry.name === SEPARATION.consumer);
      if (consumer) return { pending: consumer.num_pending, ackPending: consumer.num_ack_pending };
    }
  }
  return null;
}

const backlogOf = (sample) => (sample.extra?.backlog ? sample.extra.backlog.pending + sample.extra.backlog.ackPending : null);

/** FerretDB's count of the commands it has served, by command (its debug handler's Prometheus metrics). */
async function databaseCommands(debugUrl) {
  const text = await (await fetch(`${debugUrl}/debug/metrics`, { signal: AbortSignal.timeout(2000) })).text();
  const counts = {};
  for (const match of text.matchAll(/^ferretdb_client_requests_total\{command="([^"]+)"[^}]*\} (\S+)$/gm)) counts[match[1]] = (counts[match[1]] ?? 0) + Number(match[2]);
  return counts;
}

/** Media's owner reads by scope and how each was answered (hit, shared, miss): its read cache's counter. */
async function mediaReads(metricsUrl) {
  const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) })).text();
  const counts = {};
  for (const match of text.matchAll(/^stemdeck_media_read_cache_reads_total\{([^}]*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]));
    counts[`${labels.scope} ${labels.result}`] = Number(match[2]);
  }
  return counts;
}

/** Per scope, the reads between two samples and the share answered without a query. */
function mediaReadsBetween(first, last) {
  const before = first?.extra?.mediaReads;
  const after = last?.extra?.mediaReads;
  if (!before || !after) return null;
  const scopes = {};
  for (const [name, count] of Object.entries(after)) {
    const [scope, result] = name.split(' ');
    const entry = (scopes[scope] ??= { reads: 0, fromMemory: 0 });
    const between = count - (before[name] ?? 0);
    entry.reads += between;
    if (result !== 'miss') entry.fromMemory += between;
  }
  return scopes;
}

/** The database commands served between two samples, by command (most first). */
function commandsBetween(first, last) {
  const before = first?.extra?.commands;
  const after = last?.extra?.commands;
  if (!before || !after) return null;
  return Object.fromEntries(
    Object.entries(after)
      .map(([command, count]) => [command, count - (before[command] ?? 0)])
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

// ---------------------------------------------------------------- the figures

function percentiles(values) {
  const sorted = values.filter((value) => value !== null && Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { min: sorted[0], p50: at(0.5), max: sorted.at(-1), count: sorted.length };
}

/** The upload results the script logged (one JSON line each in k6's JSON log). */
function uploadResults(logFile) {
  if (!existsSync(logFile)) return { results: [], warnings: [] };
  const results = [];
  const warnings = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n').filter(Boolean)) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const message = String(entry.msg ?? '');
    if (message.startsWith('{"upload_result"')) results.push(JSON.parse(message).upload_result);
    else if (entry.level === 'warning' || entry.level === 'error') warnings.push(message);
  }
  return { results: results.sort((a, b) => a.index - b.index), warnings };
}

/** From the job's start (its first stems_progress) to its stems_ready. */
const separatingMs = (upload) => (upload.allStemsMs != null && upload.queueWaitMs != null ? upload.allStemsMs - upload.queueWaitMs : null);

/** Count and latency percentiles of one of the k6 script's duration trends. */
const latencyOf = (summary, trend) => ({
  count: metric(summary, trend, 'count'),
  p50Ms: metric(summary, trend, 'med'),
  p95Ms: metric(summary, trend, 'p(95)'),
  p99Ms: metric(summary, trend, 'p(99)'),
  maxMs: metric(summary, trend, 'max'),
});

function report(summary, uploads, samples, windows, meta) {
  const kinds = ['list', 'project', 'stems', 'volume'];
  const requests = Object.fromEntries(
    kinds.map((kind) => [kind, { ...latencyOf(summary, `api_${kind}_ms`), errors: metric(summary, `api_${kind}_errors`, 'count') }]),
  );
  const all = summary.metrics['http_req_duration{scenario:api}']?.values ?? {};
  const apiErrors = metric(summary, 'api_errors', 'count');
  const apiRequests = kinds.reduce((sum, kind) => sum + requests[kind].count, 0);
  const apiLoad = usage(samples, windows.apiFrom, windows.apiTo);
  const inApi = samples.filter((sample) => sample.at >= windows.apiFrom && sample.at <= windows.apiTo);
  const commands = commandsBetween(inApi[0], inApi.at(-1));
  const commandTotal = commands ? Object.values(commands).reduce((a, b) => a + b, 0) : null;
  const reads = mediaReadsBetween(inApi[0], inApi.at(-1));
  const apiSeconds = inApi.length > 1 ? (inApi.at(-1).at - inApi[0].at) / 1000 : null;
  const ferretCpu = apiLoad?.processes.ferretdb?.cpuPercent ?? null;
  const wholeLoad = usage(samples, windows.apiFrom, windows.end);
  const gatewayPeaks = Object.fromEntries(
    ['gateway (replica 1)', 'gateway-2 (replica 2)'].map((name) => [name, Math.max(...samples.map((sample) => sample.procs[name]?.rssKb ?? 0)) / 1024]),
  );
  const backlogSeries = samples.filter((sample) => sample.at >= windows.apiFrom).map((sample) => ({ at: sample.at, backlog: backlogOf(sample) }));
  const backlogPeak = Math.max(0, ...backlogSeries.map((entry) => entry.backlog ?? 0));
  const lastBusy = backlogSeries.findLast((entry) => entry.backlog > 0);
  const drainedAt = lastBusy ? backlogSeries.find((entry) => entry.at > lastBusy.at && entry.backlog === 0)?.at ?? null : windows.uploadsFrom;
  const ok = uploads.filter((upload) => upload.status === 201 && upload.allStemsMs !== null && !upload.failed);
  const figures = {
    ...meta,
    api: {
      vus: API_VUS,
      users: USERS,
      thinkMs: THINK_MS,
      durationS: DURATION_MS / 1000,
      visits: metric(summary, 'api_visits', 'count'),
      requests: apiRequests,
      requestsPerSecond: apiRequests / (DURATION_MS / 1000),
      errors: apiErrors,
      rateLimited: metric(summary, 'api_rate_limited', 'count'),
      all: { p50Ms: all.med ?? 0, p95Ms: all['p(95)'] ?? 0, p99Ms: all['p(99)'] ?? 0, maxMs: all.max ?? 0 },
      steady: { afterMs: STEADY_AFTER_MS, ...latencyOf(summary, 'api_steady_ms') },
      byKind: requests,
    },
    uploads: {
      count: UPLOADS,
      megabytes: UPLOAD_MB,
      succeeded: ok.length,
      httpMs: percentiles(uploads.map((upload) => upload.httpMs)),
      queueWaitMs: percentiles(uploads.map((upload) => upload.queueWaitMs)),
      firstStemsMs: percentiles(uploads.map((upload) => upload.firstStemsMs)),
      allStemsMs: percentiles(uploads.map((upload) => upload.allStemsMs)),
      separatingMs: percentiles(uploads.map(separatingMs)),
      each: uploads,
    },
    gatewayRssPeakMb: gatewayPeaks,
    backlog: {
      peak: backlogPeak,
      drainedAt: drainedAt ? new Date(drainedAt).toISOString() : null,
      drainedSecondsAfterUploadsStart: drainedAt ? (drainedAt - windows.uploadsFrom) / 1000 : null,
      series: backlogSeries.map((entry) => [Math.round((entry.at - windows.apiFrom) / 1000), entry.backlog]),
    },
    database: commands && {
      commandsDuringApi: commands,
      commandsPerSecond: commandTotal / apiSeconds,
      commandsPerApiRequest: commandTotal / Math.max(1, apiRequests),
      ferretdbCpuMsPerCommand: ferretCpu === null ? null : (ferretCpu / 100) * apiSeconds * 1000 / Math.max(1, commandTotal),
    },
    mediaReadsDuringApi: reads,
    loadDuringApi: apiLoad,
    loadWholeRun: wholeLoad,
  };
  const goals = {
    apiErrors: apiErrors === 0,
    apiP99: (all['p(99)'] ?? Infinity) <= GOAL_P99_MS,
    uploads: ok.length === UPLOADS,
    gatewayRss: Object.values(gatewayPeaks).every((peak) => peak < GOAL_RSS_MB),
    backlogDrained: UPLOADS === 0 || drainedAt !== null,
  };
  figures.goals = goals;

  const ms = (value) => (value === null || value === undefined ? 'n/a' : `${fixed(value, 0)} ms`);
  const s = (value) => (value === null || value === undefined ? 'n/a' : `${fixed(value / 1000, 1)} s`);
  const mark = (met) => (met ? 'met' : 'MISSED');
  const lines = [
    '',
    `  API under load: ${API_VUS} VUs over ${USERS} users (≤ ${Math.ceil(API_VUS / USERS)} VUs each), ${DURATION_MS / 1000} s, think ${THINK_MS} ms ±25 %, two gateway replicas (${meta.target})`,
    `  requests                        ${apiRequests} (${fixed(figures.api.requestsPerSecond, 0)}/s), ${figures.api.visits} visits, errors ${apiErrors}${figures.api.rateLimited ? ` (${figures.api.rateLimited} of them 429)` : ''}   goal 0: ${mark(goals.apiErrors)}`,
    `  latency, all API requests       p50 ${ms(figures.api.all.p50Ms)}, p95 ${ms(figures.api.all.p95Ms)}, p99 ${ms(figures.api.all.p99Ms)}, max ${ms(figures.api.all.maxMs)}   goal p99 ≤ ${GOAL_P99_MS} ms: ${mark(goals.apiP99)}`,
    `    visits from ${STEADY_AFTER_MS / 1000} s on (not the VUs' first visits, all started in one instant on cold reads): p50 ${ms(figures.api.steady.p50Ms)}, p95 ${ms(figures.api.steady.p95Ms)}, p99 ${ms(figures.api.steady.p99Ms)}, max ${ms(figures.api.steady.maxMs)} (${figures.api.steady.count} requests)`,
    ...kinds.map((kind) => {
      const entry = requests[kind];
      const label = { list: 'GET /api/projects', project: 'GET /api/projects/:id', stems: 'GET /api/projects/:id/stems', volume: 'PUT /api/stems/:id {volume}' }[kind];
      return `    ${label.padEnd(30)}${String(entry.count).padStart(6)}  p50 ${ms(entry.p50Ms)}, p95 ${ms(entry.p95Ms)}, p99 ${ms(entry.p99Ms)}, max ${ms(entry.maxMs)}, errors ${entry.errors}`;
    }),
  ];
  if (UPLOADS > 0) {
    const u = figures.uploads;
    lines.push(
      `  uploads: ${UPLOADS} × ${UPLOAD_MB} MB WAV at once, ${fixed(UPLOAD_START_MS / 1000, 0)} s into the API load`,
      `  succeeded                       ${u.succeeded} / ${UPLOADS}   goal all: ${mark(goals.uploads)}`,
      `  upload HTTP time                min ${ms(u.httpMs?.min)}, median ${ms(u.httpMs?.p50)}, max ${ms(u.httpMs?.max)}`,
      `  after the 201: job started      min ${s(u.queueWaitMs?.min)}, median ${s(u.queueWaitMs?.p50)}, max ${s(u.queueWaitMs?.max)} (waiting for the worker)`,
      `  after the 201: first stems      min ${s(u.firstStemsMs?.min)}, median ${s(u.firstStemsMs?.p50)}, max ${s(u.firstStemsMs?.max)} (stems_partial)`,
      `  after the 201: all stems        min ${s(u.allStemsMs?.min)}, median ${s(u.allStemsMs?.p50)}, max ${s(u.allStemsMs?.max)} (stems_ready)`,
      `  one job, started → all stems    min ${s(u.separatingMs?.min)}, median ${s(u.separatingMs?.p50)}, max ${s(u.separatingMs?.max)} (one media worker takes one job at a time)`,
      `  separation backlog              peak ${backlogPeak}, drained ${figures.backlog.drainedSecondsAfterUploadsStart === null ? 'NOT within the wait' : `${fixed(figures.backlog.drainedSecondsAfterUploadsStart, 0)} s after the uploads started`}   goal drains: ${mark(goals.backlogDrained)}`,
      '    #  user     replica  status   HTTP    queued  first stems  all stems  separating',
      ...uploads.map(
        (upload) =>
          `   ${String(upload.index).padStart(2)}  ${upload.user.padEnd(8)} ${upload.replica.split(':').at(-1).padEnd(8)} ${String(upload.status).padEnd(6)} ${s(upload.httpMs).padStart(7)} ${s(upload.queueWaitMs).padStart(8)} ${s(upload.firstStemsMs).padStart(12)} ${s(upload.allStemsMs).padStart(10)} ${s(separatingMs(upload)).padStart(11)}${upload.queuePositionAtAnswer ? `  (place ${upload.queuePositionAtAnswer} in its user's line)` : ''}${upload.failed ? '  stems_failed' : ''}${upload.error ? `  ${upload.error}` : ''}`,
      ),
    );
  }
  lines.push(`  gateway RSS peak, whole run     replica 1 ${fixed(gatewayPeaks['gateway (replica 1)'], 0)} MB, replica 2 ${fixed(gatewayPeaks['gateway-2 (replica 2)'], 0)} MB   goal < ${GOAL_RSS_MB} MB: ${mark(goals.gatewayRss)}`);
  if (figures.database) {
    const db = figures.database;
    lines.push(
      `  database (FerretDB) during the API load: ${fixed(db.commandsPerSecond, 0)} commands/s, ${fixed(db.commandsPerApiRequest, 1)} per API request, ${fixed(db.ferretdbCpuMsPerCommand, 2)} ms of its CPU each`,
      `    ${Object.entries(db.commandsDuringApi).slice(0, 8).map(([command, count]) => `${command} ${count}`).join(', ')}`,
    );
  }
  if (figures.mediaReadsDuringApi) {
    const scopes = Object.entries(figures.mediaReadsDuringApi).map(([scope, entry]) => `${scope} ${entry.reads} (${fixed((100 * entry.fromMemory) / Math.max(1, entry.reads), 0)} % from memory)`);
    lines.push(`  media's owner reads during the API load: ${scopes.join(', ') || 'none'}`);
  }
  const named = ['gateway (replica 1)', 'gateway-2 (replica 2)', 'media', 'ferretdb', 'nats', 'k6'];
  if (apiLoad) lines.push(`  during the ${DURATION_MS / 1000} s of API load:`, ...usageLines(apiLoad, named, meta.loadBefore));
  process.stdout.write(`${lines.join('\n')}\n\n`);
  return figures;
}

// ---------------------------------------------------------------- the run

async function main() {
  // A fresh clone has no dependencies, servers, ffmpeg or build yet; a run attached to `npm start` has them.
  await prepare({ build: !attach });
  const k6 = ensureK6();
  const media = prepareMedia();
  const { stack, baseUrls, keycloakUrl, adminUser, adminPassword, started } = await openLoadStack({ attach, runner: 'npm run load:api' });
  try {
    const token = await adminToken(keycloakUrl, adminUser, adminPassword);
    const usernames = await ensureUsers(keycloakUrl, token, 'api-', USERS);
    const users = await signInUsers(stack.publicUrl, usernames);
    log(`${users.length} users signed in through the Keycloak login form; uploading a ${SONG_SECONDS} s song for each`);
    const projects = await mapConcurrently(users, 4, (user) => projectWithStems(user, stack.publicUrl, media.song));
    log(`${projects.length} projects with four stems each`);

    mkdirSync(OUT_DIR, { recursive: true });
    const planFile = join(OUT_DIR, 'plan.json');
    const summaryFile = join(OUT_DIR, 'summary.json');
    const logFile = join(OUT_DIR, 'k6-log.json');
    writeFileSync(logFile, '');
    // Uploads go to different users (the first UPLOADS, or round the users when there are fewer).
    const userIndexes = Array.from({ length: Math.min(UPLOADS, USERS) }, (_, i) => i);
    writeFileSync(
      planFile,
      JSON.stringify({
        baseUrls,
        apiVus: API_VUS,
        durationMs: DURATION_MS,
        thinkMs: THINK_MS,
        goalP99Ms: GOAL_P99_MS,
        steadyAfterMs: STEADY_AFTER_MS,
        users: users.map((user, i) => ({ name: user.username, cookie: user.agent.cookie, ...projects[i] })),
        uploads: { count: UPLOADS, file: media.upload, startAfterMs: UPLOAD_START_MS, timeoutMs: UPLOAD_TIMEOUT_MS, userIndexes },
      }),
      { mode: 0o600 },
    );

    const monitorUrl = `http://127.0.0.1:${stack.ports.natsMonitor}`;
    const databaseDebugUrl = `http://127.0.0.1:${stack.ports.ferretdbDebug}`;
    const mediaMetricsUrl = `http://127.0.0.1:${serviceHealthPort(stack, 'media')}/metrics`;
    if (!(await separationBacklog(monitorUrl))) log(`NATS monitoring at ${monitorUrl} shows no ${SEPARATION.stream}/${SEPARATION.consumer} consumer; the backlog will read n/a`);
    const pids = stackPids(stack);
    const loadBefore = loadAverage();
    const perUser = Math.ceil(API_VUS / USERS);
    log(
      `running k6: ${API_VUS} VUs for ${DURATION_MS / 1000} s (≤ ${perUser} per user: about ${Math.round((perUser * 60_000) / THINK_MS)} changes a minute each, ` +
        `the limit is ${RATE_LIMIT_PER_MINUTE})${UPLOADS ? `, ${UPLOADS} × ${(statSync(media.upload).size / 1024 / 1024).toFixed(0)} MB uploads from ${UPLOAD_START_MS / 1000} s` : ''}`,
    );
    const sampleQueues = async () => ({
      backlog: await separationBacklog(monitorUrl).catch(() => null),
      commands: await databaseCommands(databaseDebugUrl).catch(() => null),
      mediaReads: await mediaReads(mediaMetricsUrl).catch(() => null),
    });
    let sampler;
    const k6Started = Date.now();
    const { code } = await runK6(k6, 'api.k6.js', { PLAN: planFile, SUMMARY: summaryFile }, { logFile, onStart: (child) => (sampler = startSampler({ ...pids, k6: child.pid }, sampleQueues)) });
    // The uploads' VUs wait for their stems; whatever is still queued (a failed upload's retries, say) drains here.
    const drainDeadline = Date.now() + BACKLOG_DRAIN_TIMEOUT_MS;
    while (UPLOADS > 0 && Date.now() < drainDeadline) {
      const last = sampler.samples.at(-1);
      if (last && backlogOf(last) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const samples = await sampler.stop();
    if (!existsSync(summaryFile)) throw new Error(`k6 ended (${code}) without a summary`);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    const { results, warnings } = uploadResults(logFile);
    for (const warning of warnings.slice(0, 10)) log(`k6: ${warning}`);
    const apiFrom = summary.setup_data?.t0 ?? k6Started;
    const figures = report(
      summary,
      results,
      samples,
      { apiFrom, apiTo: apiFrom + DURATION_MS, uploadsFrom: apiFrom + UPLOAD_START_MS, end: samples.at(-1).at },
      { at: new Date().toISOString(), target: attach ? 'npm start' : 'test stack started by this run', k6ExitCode: code, loadBefore },
    );
    const resultFile = join(OUT_DIR, `result-${figures.at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(resultFile, JSON.stringify(figures, null, 2));
    log(`figures written to ${resultFile}`);
    const missed = Object.entries(figures.goals).filter(([, met]) => !met).map(([goal]) => goal);
    if (missed.length) log(`goals missed: ${missed.join(', ')}`);
    return missed.length === 0 && code === 0 ? 0 : 1;
  } finally {
    if (started) await stopAll();
  }
}

runLoadMain(main, log);
