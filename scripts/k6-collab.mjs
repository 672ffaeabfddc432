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
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureK6 } from './k6-install.mjs';
import { ROOT, stackProfile, startApps, startInfra, stopAll } from './stack.mjs';

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
const PASSWORD = 'load-test-password';
const OUT_DIR = join(ROOT, '.data', 'bench', 'k6-collab');

const log = (message) => process.stderr.write(`[load] ${message}\n`);

if (!(PARTICIPANTS >= 2 && PARTICIPANTS <= 16) || !(SESSIONS >= 1)) {
  log('LOAD_PARTICIPANTS must be 2–16 (a session holds at most 16) and LOAD_SESSIONS at least 1');
  process.exit(2);
}

// ---------------------------------------------------------------- Keycloak users through its admin API

async function adminToken(keycloakUrl, username, password) {
  const { keycloakAdminToken, KeycloakAdminRefused } = await import('@stemdeck/test-client');
  try {
    return await keycloakAdminToken(keycloakUrl, username, password);
  } catch (error) {
    if (!(error instanceof KeycloakAdminRefused)) throw error;
    throw new Error(
      `Keycloak at ${keycloakUrl} refused the admin sign-in (${error.status}). With --attach, start the studio as ` +
        `KC_BOOTSTRAP_ADMIN_USERNAME=<name> KC_BOOTSTRAP_ADMIN_PASSWORD=<password> npm start and pass the same two variables here.`,
    );
  }
}

/** Makes (or finds) the load users load-01… in the stemdeck realm, with a known password. */
async function ensureUsers(keycloakUrl, token, count) {
  const { ensureRealmUser } = await import('@stemdeck/test-client');
  const names = Array.from({ length: count }, (_, i) => `load-${String(i + 1).padStart(2, '0')}`);
  for (const username of names) await ensureRealmUser(keycloakUrl, token, { username, password: PASSWORD, firstName: 'Load', lastName: username.slice(5) });
  return names;
}

// ---------------------------------------------------------------- the studio's REST API as the users

async function api(agent, baseUrl, method, path, body) {
  const response = await agent.fetch(path, {
    method,
    headers: { 'content-type': 'application/json', 'x-stemdeck-csrf': '1', origin: baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function prepareSessions(baseUrl, usernames) {
  const { signInAt } = await import('@stemdeck/test-client');
  const users = [];
  for (const username of usernames) {
    const agent = await signInAt(baseUrl, username, PASSWORD);
    const me = await (await agent.fetch('/api/auth/user')).json();
    users.push({ username, id: me.id, agent });
  }
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

// ---------------------------------------------------------------- CPU and memory from /proc

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function readProc(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
    return { ticks, rssKb };
  } catch {
    return null;
  }
}

function readMachine() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  return { total: cpu.reduce((a, b) => a + b, 0), idle };
}

/** Samples the named processes every second until stopped; each sample carries its time. */
function startSampler(pids) {
  const samples = [];
  const take = () => samples.push({ at: Date.now(), machine: readMachine(), procs: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, readProc(pid)])) });
  take();
  const timer = setInterval(take, 1000);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** CPU % (of one core) and RSS (mean, peak) per process over [from, to]. */
function usage(samples, from, to) {
  const inWindow = samples.filter((sample) => sample.at >= from && sample.at <= to);
  if (inWindow.length < 2) return null;
  const first = inWindow[0];
  const last = inWindow.at(-1);
  const seconds = (last.at - first.at) / 1000;
  const result = {};
  for (const name of Object.keys(first.procs)) {
    const series = inWindow.map((sample) => sample.procs[name]).filter(Boolean);
    if (series.length < 2) continue;
    const rss = series.map((entry) => entry.rssKb / 1024);
    result[name] = {
      cpuPercent: ((series.at(-1).ticks - series[0].ticks) / CLOCK_TICKS / seconds) * 100,
      rssMbMean: rss.reduce((a, b) => a + b, 0) / rss.length,
      rssMbPeak: Math.max(...rss),
    };
  }
  const busy = 1 - (last.machine.idle - first.machine.idle) / (last.machine.total - first.machine.total);
  const cores = readFileSync('/proc/cpuinfo', 'utf8').match(/^processor\s*:/gm)?.length ?? 1;
  const measured = Object.values(result).reduce((sum, entry) => sum + entry.cpuPercent, 0);
  // What else ran on the machine meanwhile (other people's tests, say), in the same unit: % of one core.
  return { seconds, processes: result, machineBusyPercent: busy * 100, cores, outsideCpuPercent: Math.max(0, busy * 100 * cores - measured) };
}

// ---------------------------------------------------------------- the run

function runK6(k6, planFile, summaryFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(k6, ['run', '--quiet', '--no-usage-report', '-e', `PLAN=${planFile}`, '-e', `SUMMARY=${summaryFile}`, join(ROOT, 'load', 'collab.k6.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ pid: child.pid, code: code ?? signal }));
    runK6.child = child;
  });
}

const metric = (summary, name, stat) => summary.metrics[name]?.values?.[stat] ?? 0;
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

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
  if (load) {
    const named = ['gateway (replica 1)', 'gateway-2 (replica 2)', 'nats', 'k6'];
    for (const name of named.filter((n) => load.processes[n])) {
      const entry = load.processes[name];
      lines.push(`  ${name.padEnd(32)}CPU ${fixed(entry.cpuPercent)} % of a core, RSS ${fixed(entry.rssMbMean, 0)} MB mean, ${fixed(entry.rssMbPeak, 0)} MB peak`);
    }
    const rest = Object.entries(load.processes).filter(([name]) => !named.includes(name));
    lines.push(`  rest of the stack               CPU ${fixed(rest.reduce((sum, [, entry]) => sum + entry.cpuPercent, 0))} % of a core (${rest.map(([name, entry]) => `${name} ${fixed(entry.cpuPercent)}`).join(', ')})`);
    lines.push(`  outside this run                CPU ${fixed(load.outsideCpuPercent)} % of a core (other work on the machine)`);
    lines.push(`  machine                         ${fixed(load.machineBusyPercent)} % busy over the ${fixed(load.seconds, 0)} s window (${load.cores} cores, load average before: ${meta.loadBefore})`);
  }
  const problems = Object.entries(figures.problems).filter(([, count]) => count > 0);
  if (problems.length) lines.push(`  problems                        ${problems.map(([name, count]) => `${name} ${count}`).join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
  return figures;
}

async function main() {
  const k6 = ensureK6();
  const stack = stackProfile(attach ? 'dev' : 'test');
  const baseUrls = [stack.publicUrl, stack.publicUrl2];
  for (const url of baseUrls) {
    if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(url)) throw new Error(`the load test targets loopback only, not ${url}`);
  }
  const keycloakUrl = `http://localhost:${stack.ports.keycloak}`;
  let adminUser = process.env.KC_BOOTSTRAP_ADMIN_USERNAME;
  let adminPassword = process.env.KC_BOOTSTRAP_ADMIN_PASSWORD;
  let started = false;
  try {
    if (attach) {
      for (const url of baseUrls) {
        const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) }).then((r) => r.ok).catch(() => false);
        if (!ready) throw new Error(`no studio answers at ${url}: start it with npm start (or run npm run load:collab, which starts its own)`);
      }
      if (!adminUser || !adminPassword) throw new Error('--attach needs KC_BOOTSTRAP_ADMIN_USERNAME and KC_BOOTSTRAP_ADMIN_PASSWORD: the admin the running Keycloak was started with');
    } else {
      // This stack's Keycloak starts with an admin only this run knows (passed to Keycloak through the environment).
      adminUser = 'load-admin';
      adminPassword = randomBytes(12).toString('hex');
      process.env.KC_BOOTSTRAP_ADMIN_USERNAME = adminUser;
      process.env.KC_BOOTSTRAP_ADMIN_PASSWORD = adminPassword;
      started = true;
      await startInfra(stack, { fresh: true });
      await startApps(stack);
    }
    const token = await adminToken(keycloakUrl, adminUser, adminPassword);
    const usernames = await ensureUsers(keycloakUrl, token, PARTICIPANTS);
    const prepared = await prepareSessions(stack.publicUrl, usernames);

    mkdirSync(OUT_DIR, { recursive: true });
    const planFile = join(OUT_DIR, 'plan.json');
    const summaryFile = join(OUT_DIR, 'summary.json');
    writeFileSync(planFile, JSON.stringify({ baseUrls, warmupMs: WARMUP_MS, durationMs: DURATION_MS, drainMs: DRAIN_MS, cursorIntervalMs: CURSOR_INTERVAL_MS, ...prepared }), { mode: 0o600 });

    // Every process of the stack (its pid files), each gateway replica named; the rest is summed in the report.
    const pidDir = join(stack.dataDir, 'pids');
    const label = { gateway: 'gateway (replica 1)', 'gateway-2': 'gateway-2 (replica 2)' };
    const pids = Object.fromEntries(
      (existsSync(pidDir) ? readdirSync(pidDir) : [])
        .filter((file) => file.endsWith('.pid'))
        .map((file) => [label[file.slice(0, -4)] ?? file.slice(0, -4), Number(readFileSync(join(pidDir, file), 'utf8'))]),
    );
    const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    log(`running k6: ${SESSIONS * PARTICIPANTS} sockets, ${WARMUP_MS / 1000} s to enter the rooms, then ${DURATION_MS / 1000} s of pads and cursors`);
    const k6Run = runK6(k6, planFile, summaryFile);
    const sampler = startSampler({ ...pids, k6: runK6.child.pid });
    const { code } = await k6Run;
    const samples = sampler.stop();
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

process.on('SIGINT', () => {
  runK6.child?.kill('SIGTERM');
  void stopAll().then(() => process.exit(130));
});

main()
  .then((code) => process.exit(code))
  .catch(async (error) => {
    log(error.message);
    runK6.child?.kill('SIGTERM');
    await stopAll();
    process.exit(1);
  });
