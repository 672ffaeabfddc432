// `npm run load:collab`: the live-session load test. Starts the studio on the test ports with fresh data
// (both gateway replicas), makes its load users in that Keycloak through the admin API, signs each in through
// the real login form, makes the hosts' projects and the sessions, joins everyone, then runs
// load/collab.k6.js (k6, installed by scripts/k6-install.mjs) while sampling both gateways' CPU and memory
// from /proc, prints the figures and stops everything. Loopback only; it ends by itself.
//
//   npm run load:collab                         20 sessions × 10 participants for 2 minutes
//   LOAD_SESSIONS=2 LOAD_DURATION_S=20 npm run load:collab     a short try
//   node scripts/k6-collab.mjs --attach         against a running `npm start` instead; its Keycloak needs an
//                                               admin: start it with KC_BOOTSTRAP_ADMIN_USERNAME and
//                                               KC_BOOTSTRAP_ADMIN_PASSWORD set, and give the same two here
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureK6 } from './k6-install.mjs';
import { adminToken, api, ensureUsers, fixed, loadAverage, logger, metric, openLoadStack, runK6, runLoadMain, signInUsers, stackPids, startSampler, usage, usageLines } from './k6-support.mjs';
import { prepare, ROOT, stopAll } from './stack.mjs';

const attach = process.argv.includes('--attach');
const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 20);
const PARTICIPANTS = Number(process.env.LOAD_PARTICIPANTS ?? 10);
const DURATION_MS = Number(process.env.LOAD_DURATION_S ?? 120) * 1000;
const WARMUP_MS = Number(process.env.LOAD_WARMUP_S ?? 30) * 1000;
const DRAIN_MS = 3000;
// The browser sends a cursor at most every 110 ms (CURSOR_MIN_INTERVAL_MS + 10, frontend cursorSender), and
// so does each VU, measured from its previous send. The gateway passes on at most one per socket every 100 ms
// by its own clock on arrival: when its event loop or the machine stalls, two cursors arrive closer together
// and the second is dropped before it is published, so those drops show in the cursors' delivered count.
const CURSOR_INTERVAL_MS = Number(process.env.LOAD_CURSOR_INTERVAL_MS ?? 110);
const OUT_DIR = join(ROOT, '.data', 'bench', 'k6-collab');

const log = logger('load');

if (!(PARTICIPANTS >= 2 && PARTICIPANTS <= 16) || !(SESSIONS >= 1)) {
  log('LOAD_PARTICIPANTS must be 2–16 (a session holds at most 16) and LOAD_SESSIONS at least 1');
  process.exit(2);
}

// ---------------------------------------------------------------- the sessions

async function prepareSessions(baseUrl, usernames) {
  const users = await signInUsers(baseUrl, usernames, 1);
  log(`${users.length} users signed in through the Keycloak login form`);
  const sessions = [];
  for (let s = 0; s < SESSIONS; s++) {
    // Session s is hosted by user s (mod the users), everyone else joins: participant 0 is the host.
    const order = users.map((_, i) => users[(s + i) % users.length]);
    const host = order[0];
    const project = await api(host.agent, baseUrl, 'POST', '/api/projects', { name: `Load jam ${s + 1}`, originalFile: 'load-jam.wav', duration: 180 });
    const session = await api(host.agent, baseUrl, 'POST', '/api/sessions', { name: `Load jam ${s + 1}`, projectId: project.id, hostUserId: host.id, maxParticipants: PARTICIPANTS });
    await Promise.all(order.slice(1).map((user) => api(user.agent, baseUrl, 'POST', `/api/sessions/${session.id}/join`, { userId: user.id, role: 'collaborator' })));
    sessions.push({ id: session.id, userIds: order.map((user) => user.id) });
  }
  log(`${sessions.length} sessions made, ${PARTICIPANTS - 1} joins each`);
  return { users: Object.fromEntries(users.map((user) => [user.id, { name: user.username, cookie: user.agent.cookie }])), sessions };
}

// ---------------------------------------------------------------- the run

function report(summary, load, meta) {
  const pairs = PARTICIPANTS - 1;
  const padsSent = metric(summary, 'pads_sent', 'count');
  const cursorsSent = metric(summary, 'cursors_sent', 'count');
  const padsReceived = metric(summary, 'pads_received', 'count');
  const cursorsReceived = metric(summary, 'cursors_received', 'count');
  const expectedPads = padsSent * pairs;
  const expectedCursors = cursorsSent * pairs;
  const figures = {
    ...meta,
    sockets: { joined: metric(summary, 'sockets_joined', 'count'), expected: SESSIONS * PARTICIPANTS, joinFailed: metric(summary, 'join_failed', 'count'), lateJoins: metric(summary, 'late_joins', 'count') },
    pads: { sent: padsSent, expected: expectedPads, delivered: padsReceived, p50Ms: metric(summary, 'pad_fanout_ms', 'med'), p99Ms: metric(summary, 'pad_fanout_ms', 'p(99)'), maxMs: metric(summary, 'pad_fanout_ms', 'max') },
    cursors: { sent: cursorsSent, expected: expectedCursors, delivered: cursorsReceived, p50Ms: metric(summary, 'cursor_fanout_ms', 'med'), p99Ms: metric(summary, 'cursor_fanout_ms', 'p(99)'), maxMs: metric(summary, 'cursor_fanout_ms', 'max') },
    padSendLagMs: { p50: metric(summary, 'pad_send_lag_ms', 'med'), p99: metric(summary, 'pad_send_lag_ms', 'p(99)') },
    joinMs: { p50: metric(summary, 'join_ms', 'med'), p99: metric(summary, 'join_ms', 'p(99)') },
    problems: {
      serverErrors: metric(summary, 'server_errors', 'count'),
      socketErrors: metric(summary, 'socket_errors', 'count'),
      usersLeftDuringRun: metric(summary, 'user_left_seen', 'count'),
      sessionLeft: metric(summary, 'session_left', 'count'),
      strayMessages: metric(summary, 'stray_messages', 'count'),
    },
    load,
  };
  const all = (figures.pads.delivered + figures.cursors.delivered) / Math.max(1, expectedPads + expectedCursors);
  const lines = [
    '',
    `  Live sessions under load: ${SESSIONS} sessions × ${PARTICIPANTS} participants, ${DURATION_MS / 1000} s, two gateway replicas (${meta.target})`,
    `  sockets in their rooms          ${figures.sockets.joined} / ${figures.sockets.expected}${figures.sockets.joinFailed ? ` (${figures.sockets.joinFailed} refused)` : ''}${figures.sockets.lateJoins ? ` (${figures.sockets.lateJoins} late)` : ''}`,
    `  pads delivered / expected       ${padsReceived} / ${expectedPads}   (${padsSent} sent, each to ${pairs} others)`,
    `  cursors delivered / expected    ${cursorsReceived} / ${expectedCursors}   (${cursorsSent} sent)`,
    `  delivered, all                  ${fixed(all * 100, 3)} %`,
    `  fan-out latency, cursors        p50 ${fixed(figures.cursors.p50Ms)} ms, p99 ${fixed(figures.cursors.p99Ms)} ms, max ${fixed(figures.cursors.maxMs)} ms (send time carried in the message)`,
    `  fan-out latency, pads           p50 ${fixed(figures.pads.p50Ms)} ms, p99 ${fixed(figures.pads.p99Ms)} ms (from the schedule; sender timer lag p50 ${fixed(figures.padSendLagMs.p50)} ms, p99 ${fixed(figures.padSendLagMs.p99)} ms)`,
  ];
  if (load) lines.push(...usageLines(load, ['gateway (replica 1)', 'gateway-2 (replica 2)', 'nats', 'k6'], meta.loadBefore));
  const problems = Object.entries(figures.problems).filter(([, count]) => count > 0);
  if (problems.length) lines.push(`  problems                        ${problems.map(([name, count]) => `${name} ${count}`).join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
  return figures;
}

async function main() {
  // A fresh clone has no dependencies, servers, ffmpeg or build yet; a run attached to `npm start` has them.
  await prepare({ build: !attach });
  const k6 = ensureK6();
  const { stack, baseUrls, keycloakUrl, adminUser, adminPassword, started } = await openLoadStack({ attach, runner: 'npm run load:collab' });
  try {
    const token = await adminToken(keycloakUrl, adminUser, adminPassword);
    const usernames = await ensureUsers(keycloakUrl, token, 'load-', PARTICIPANTS);
    const prepared = await prepareSessions(stack.publicUrl, usernames);

    mkdirSync(OUT_DIR, { recursive: true });
    const planFile = join(OUT_DIR, 'plan.json');
    const summaryFile = join(OUT_DIR, 'summary.json');
    writeFileSync(planFile, JSON.stringify({ baseUrls, warmupMs: WARMUP_MS, durationMs: DURATION_MS, drainMs: DRAIN_MS, cursorIntervalMs: CURSOR_INTERVAL_MS, ...prepared }), { mode: 0o600 });

    // Every process of the stack, each gateway replica named; the rest is summed in the report.
    const pids = stackPids(stack);
    const loadBefore = loadAverage();
    log(`running k6: ${SESSIONS * PARTICIPANTS} sockets, ${WARMUP_MS / 1000} s to enter the rooms, then ${DURATION_MS / 1000} s of pads and cursors`);
    let sampler;
    const { code } = await runK6(k6, 'collab.k6.js', { PLAN: planFile, SUMMARY: summaryFile }, { onStart: (child) => (sampler = startSampler({ ...pids, k6: child.pid })) });
    const samples = await sampler.stop();
    if (!existsSync(summaryFile)) throw new Error(`k6 ended (${code}) without a summary`);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    const t0 = summary.setup_data?.t0;
    const load = t0 ? usage(samples, t0, t0 + DURATION_MS) : null;
    const figures = report(summary, load, {
      at: new Date().toISOString(),
      target: attach ? 'npm start' : 'test stack started by this run',
      k6ExitCode: code,
      loadBefore,
      cursorIntervalMs: CURSOR_INTERVAL_MS,
    });
    const resultFile = join(OUT_DIR, `result-${figures.at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(resultFile, JSON.stringify(figures, null, 2));
    log(`figures written to ${resultFile}`);
    return code === 0 ? 0 : 1;
  } finally {
    if (started) await stopAll();
  }
}

runLoadMain(main, log);
