// k6 load script for the studio's REST API with uploads beside it (run by scripts/k6-api.mjs, which prepares
// the plan: signed-in load users, each with a project whose stems are separated, and the upload file).
//
// Scenario `api`: API_VUS virtual users for DURATION_MS, each iteration one user's visit to the mixer — the
// project list, one project, its stems, one stem's volume changed (PUT /api/stems/:id, the mixer's save when
// /ws is not connected) — then a think time; iterations alternate between the two gateway replicas. A VU
// belongs to user (VU id mod users), so each user's changes stay under the gateway's per-user rate limit.
// Every answer that is not 200 counts as an error of its kind.
//
// Scenario `uploads`, starting UPLOAD_START_MS into `api`: UPLOADS users' browsers at once, each opening /ws
// (as the studio does) and then sending the ~50 MB WAV to POST /api/upload; from the 201 it follows its
// project's events: stems_progress (the job handed to a worker: progress 0), stems_partial (the first seconds
// of every stem playable — what the studio shows first), stems_ready (all stems). Each upload's figures are
// logged as one `upload_result` line for the runner and kept in Trends.
import http from 'k6/http';
import { sleep } from 'k6';
import { open as openFile, SeekMode } from 'k6/experimental/fs';
import { WebSocket } from 'k6/websockets';
import { Counter, Trend } from 'k6/metrics';
import exec from 'k6/execution';

const plan = JSON.parse(open(__ENV.PLAN));
const KINDS = ['list', 'project', 'stems', 'volume'];
const uploadFile = plan.uploads.count > 0 ? await openFile(plan.uploads.file) : null;

export const options = {
  scenarios: {
    api: {
      executor: 'constant-vus',
      exec: 'apiVisit',
      vus: plan.apiVus,
      duration: `${plan.durationMs / 1000}s`,
      // A visit under way at the end finishes (its answers can take seconds when the machine is saturated),
      // so no request is cut off and miscounted as an error.
      gracefulStop: '60s',
    },
    ...(plan.uploads.count > 0
      ? {
          uploads: {
            executor: 'per-vu-iterations',
            exec: 'uploadSong',
            vus: plan.uploads.count,
            iterations: 1,
            startTime: `${plan.uploads.startAfterMs / 1000}s`,
            maxDuration: `${Math.ceil(plan.uploads.timeoutMs / 1000) + 60}s`,
            gracefulStop: '10s',
          },
        }
      : {}),
  },
  thresholds: {
    api_errors: ['count==0'],
    'http_req_duration{scenario:api}': [`p(99)<=${plan.goalP99Ms}`],
    ...(plan.uploads.count > 0 ? { upload_failed: ['count==0'] } : {}),
  },
  setupTimeout: '30s',
  summaryTrendStats: ['min', 'med', 'avg', 'p(95)', 'p(99)', 'max', 'count'],
};

const latency = Object.fromEntries(KINDS.map((kind) => [kind, new Trend(`api_${kind}_ms`, true)]));
// Every request of the visits that start once the first seconds are over: all VUs start in the same instant, so
// their first visits land together on cold session copies and cold reads, which the whole run's figures include.
const steadyLatency = new Trend('api_steady_ms', true);
const apiErrors = new Counter('api_errors');
const errorsByKind = Object.fromEntries(KINDS.map((kind) => [kind, new Counter(`api_${kind}_errors`)]));
const rateLimited = new Counter('api_rate_limited');
const visits = new Counter('api_visits');
const uploadHttp = new Trend('upload_http_ms', true);
const uploadQueueWait = new Trend('upload_queue_wait_ms', true);
const uploadFirstStems = new Trend('upload_first_stems_ms', true);
const uploadAllStems = new Trend('upload_all_stems_ms', true);
const uploadsOk = new Counter('uploads_ok');
const uploadFailed = new Counter('upload_failed');

let warned = 0;
const warn = (text) => {
  if (warned++ < 3) console.warn(text);
};

export function setup() {
  return { t0: Date.now() };
}

function headersFor(user, base, json) {
  const headers = { Cookie: user.cookie, Origin: base, 'x-stemdeck-csrf': '1' };
  if (json) headers['content-type'] = 'application/json';
  return headers;
}

/** Times one answer under its kind (and in the steady part); anything but 200 is an error (429 also counted alone). */
function record(kind, response, steady) {
  latency[kind].add(response.timings.duration);
  if (steady) steadyLatency.add(response.timings.duration);
  if (response.status === 200) return true;
  apiErrors.add(1, { kind });
  errorsByKind[kind].add(1);
  if (response.status === 429) rateLimited.add(1);
  warn(`${kind}: ${response.request.method} ${response.url} answered ${response.status} ${String(response.body).slice(0, 200)}`);
  return false;
}

export function apiVisit(data) {
  const steady = Date.now() - data.t0 >= plan.steadyAfterMs;
  const vu = exec.vu.idInTest;
  const user = plan.users[vu % plan.users.length];
  const base = plan.baseUrls[(vu + exec.vu.iterationInScenario) % plan.baseUrls.length];
  const params = (kind, json) => ({ headers: headersFor(user, base, json), tags: { kind }, redirects: 0 });
  visits.add(1);
  record('list', http.get(`${base}/api/projects`, params('list')), steady);
  record('project', http.get(`${base}/api/projects/${user.projectId}`, params('project')), steady);
  record('stems', http.get(`${base}/api/projects/${user.projectId}/stems`, params('stems')), steady);
  const stemId = user.stemIds[Math.floor(Math.random() * user.stemIds.length)];
  const volume = Math.round((-24 + Math.random() * 24) * 10) / 10;
  record('volume', http.put(`${base}/api/stems/${stemId}`, JSON.stringify({ volume }), params('volume', true)), steady);
  // A person's pause between mixer moves: THINK_MS ± 25 %.
  sleep((plan.thinkMs * (0.75 + Math.random() * 0.5)) / 1000);
}

/** ASCII text as bytes (the multipart head and tail). */
function ascii(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * The upload's multipart body as the browser sends it (the file in `audio`), built in one buffer with the file
 * read straight into its place: the file itself is shared by every VU, and each uploader holds one copy of it.
 */
async function multipartBody(fileName, boundary) {
  const head = ascii(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${fileName}"\r\nContent-Type: audio/wav\r\n\r\n`);
  const tail = ascii(`\r\n--${boundary}--\r\n`);
  const size = (await uploadFile.stat()).size;
  const body = new Uint8Array(head.length + size + tail.length);
  body.set(head, 0);
  await uploadFile.seek(0, SeekMode.Start);
  // File.read fills a buffer from its start whatever view it is given, so the file comes in 1 MiB pieces.
  const chunk = new Uint8Array(1024 * 1024);
  let filled = 0;
  while (filled < size) {
    const read = await uploadFile.read(chunk);
    if (read === null || read === 0) break;
    body.set(read === chunk.length ? chunk : chunk.subarray(0, read), head.length + filled);
    filled += read;
  }
  if (filled !== size) throw new Error(`read ${filled} of ${size} bytes of ${plan.uploads.file}`);
  body.set(tail, head.length + size);
  return { body, fileBytes: size };
}

export async function uploadSong() {
  const index = exec.scenario.iterationInTest;
  const user = plan.users[plan.uploads.userIndexes[index % plan.uploads.userIndexes.length]];
  const base = plan.baseUrls[index % plan.baseUrls.length];
  const fileName = `k6-upload-${String(index + 1).padStart(2, '0')}.wav`;
  const result = { index: index + 1, user: user.name, replica: base, fileName, status: 0 };
  const events = [];
  let projectId = null;
  let settle = null;
  const settled = new Promise((resolve) => (settle = resolve));
  const finishedFor = (event) => event.projectId === projectId && (event.type === 'stems_ready' || event.type === 'stems_failed');

  const boundary = `----k6-upload-${index + 1}-${Date.now()}`;
  const { body, fileBytes } = await multipartBody(fileName, boundary);
  result.bytes = fileBytes;
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, null, { headers: { Cookie: user.cookie, Origin: base } });
  const opened = new Promise((resolve) => {
    ws.onopen = () => resolve(true);
    ws.onerror = (event) => {
      warn(`upload ${index + 1}: socket error ${event.error}`);
      resolve(false);
    };
  });
  ws.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (!String(event.type).startsWith('stems_')) return;
    events.push({ at: Date.now(), type: event.type, projectId: event.projectId, engine: event.engine, progress: event.progress, seconds: event.seconds });
    if (projectId && finishedFor(event)) settle();
  };
  result.socketOpen = await opened;

  const startedAt = Date.now();
  const response = await http.asyncRequest('POST', `${base}/api/upload`, body.buffer, {
    headers: { Cookie: user.cookie, Origin: base, 'x-stemdeck-csrf': '1', 'content-type': `multipart/form-data; boundary=${boundary}` },
    tags: { kind: 'upload' },
    timeout: '300s',
  });
  const answeredAt = Date.now();
  result.status = response.status;
  result.httpMs = response.timings.duration;
  result.startedAt = startedAt;
  result.answeredAt = answeredAt;
  uploadHttp.add(response.timings.duration);
  if (response.status !== 201) {
    uploadFailed.add(1);
    result.error = String(response.body).slice(0, 300);
    warn(`upload ${index + 1} answered ${response.status}: ${result.error}`);
    ws.close();
    console.log(JSON.stringify({ upload_result: result }));
    return;
  }
  const answer = response.json();
  projectId = answer.project.id;
  result.projectId = projectId;
  result.engine = answer.job?.engine ?? null;
  result.jobStatusAtAnswer = answer.job?.status ?? null;
  result.queuePositionAtAnswer = answer.job?.queuePosition ?? null;
  if (events.some(finishedFor)) settle();
  const timer = setTimeout(() => settle(), Math.max(0, plan.uploads.timeoutMs - (Date.now() - startedAt)));
  await settled;
  clearTimeout(timer);
  ws.close();

  const mine = events.filter((event) => event.projectId === projectId);
  const at = (type, extra = () => true) => mine.find((event) => event.type === type && extra(event))?.at ?? null;
  const since = (time) => (time === null ? null : time - answeredAt);
  result.queueWaitMs = since(at('stems_progress', (event) => event.progress === 0));
  result.partialSeconds = mine.find((event) => event.type === 'stems_partial')?.seconds ?? null;
  const partial = at('stems_partial');
  const ready = at('stems_ready');
  result.firstStemsMs = since(partial ?? ready);
  result.allStemsMs = since(ready);
  result.failed = mine.some((event) => event.type === 'stems_failed');
  if (result.queueWaitMs !== null) uploadQueueWait.add(result.queueWaitMs);
  if (result.firstStemsMs !== null) uploadFirstStems.add(result.firstStemsMs);
  if (result.allStemsMs !== null && !result.failed) {
    uploadAllStems.add(result.allStemsMs);
    uploadsOk.add(1);
  } else {
    uploadFailed.add(1);
    warn(`upload ${index + 1} (${projectId}): ${result.failed ? 'stems_failed' : `no stems_ready within ${plan.uploads.timeoutMs / 1000} s`}`);
  }
  console.log(JSON.stringify({ upload_result: result }));
}

/** The runner reads the figures from this file. */
export function handleSummary(data) {
  return { [__ENV.SUMMARY]: JSON.stringify(data, null, 1) };
}
