// What the k6 load runners share (scripts/k6-collab.mjs, scripts/k6-api.mjs): the stack they start or attach
// to (loopback only), load users made through Keycloak's admin API and signed in through the real login form,
// the studio's REST API as those users, CPU and memory of the stack's processes from /proc, and running k6
// with a plan file in and a summary file out. Each runner keeps only its own plan, figures and report.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, stackProfile, startApps, startInfra, stopAll } from './stack.mjs';

export const LOAD_PASSWORD = 'load-test-password';

export const logger = (prefix) => (message) => process.stderr.write(`[${prefix}] ${message}\n`);

// ---------------------------------------------------------------- the stack: started fresh, or attached to

/**
 * Starts the test-profile stack with fresh data (both gateway replicas) and a Keycloak admin only this run
 * knows, or with `attach` checks that a running `npm start` answers and takes its admin from the environment.
 * `runner` names the npm script in messages.
 */
export async function openLoadStack({ attach, runner }) {
  const stack = stackProfile(attach ? 'dev' : 'test');
  const baseUrls = [stack.publicUrl, stack.publicUrl2];
  for (const url of baseUrls) {
    if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(url)) throw new Error(`the load test targets loopback only, not ${url}`);
  }
  const keycloakUrl = `http://localhost:${stack.ports.keycloak}`;
  let adminUser = process.env.KC_BOOTSTRAP_ADMIN_USERNAME;
  let adminPassword = process.env.KC_BOOTSTRAP_ADMIN_PASSWORD;
  if (attach) {
    for (const url of baseUrls) {
      const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) }).then((r) => r.ok).catch(() => false);
      if (!ready) throw new Error(`no studio answers at ${url}: start it with npm start (or run ${runner}, which starts its own)`);
    }
    if (!adminUser || !adminPassword) throw new Error('--attach needs KC_BOOTSTRAP_ADMIN_USERNAME and KC_BOOTSTRAP_ADMIN_PASSWORD: the admin the running Keycloak was started with');
  } else {
    // This stack's Keycloak starts with an admin only this run knows (passed to Keycloak through the environment).
    adminUser = 'load-admin';
    adminPassword = randomBytes(12).toString('hex');
    process.env.KC_BOOTSTRAP_ADMIN_USERNAME = adminUser;
    process.env.KC_BOOTSTRAP_ADMIN_PASSWORD = adminPassword;
    await startInfra(stack, { fresh: true });
    await startApps(stack);
  }
  return { stack, baseUrls, keycloakUrl, adminUser, adminPassword, started: !attach };
}

/** Every process of the stack (its pid files), each gateway replica named. */
export function stackPids(stack) {
  const pidDir = join(stack.dataDir, 'pids');
  const label = { gateway: 'gateway (replica 1)', 'gateway-2': 'gateway-2 (replica 2)' };
  return Object.fromEntries(
    (existsSync(pidDir) ? readdirSync(pidDir) : [])
      .filter((file) => file.endsWith('.pid'))
      .map((file) => [label[file.slice(0, -4)] ?? file.slice(0, -4), Number(readFileSync(join(pidDir, file), 'utf8'))]),
  );
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// ---------------------------------------------------------------- Keycloak users through its admin API

export async function adminToken(keycloakUrl, username, password) {
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

/** Makes (or finds) the users `<prefix>01`… in the stemdeck realm, with the load password. */
export async function ensureUsers(keycloakUrl, token, prefix, count) {
  const { ensureRealmUser } = await import('@stemdeck/test-client');
  const names = Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);
  for (const username of names) await ensureRealmUser(keycloakUrl, token, { username, password: LOAD_PASSWORD, firstName: 'Load', lastName: username.slice(prefix.length) });
  return names;
}

/** Signs each user in through the Keycloak login form (a few at a time): `[{username, id, agent}]` in order. */
export async function signInUsers(baseUrl, usernames, concurrency = 4) {
  const { signInAt } = await import('@stemdeck/test-client');
  return mapConcurrently(usernames, concurrency, async (username) => {
    const agent = await signInAt(baseUrl, username, LOAD_PASSWORD);
    const me = await (await agent.fetch('/api/auth/user')).json();
    return { username, id: me.id, agent };
  });
}

/** `fn` over `items`, at most `limit` at a time; the results in the items' order. */
export async function mapConcurrently(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------- the studio's REST API as the users

/** A JSON call as the browser makes it (CSRF header, its Origin); a non-2xx answer throws with its body. */
export async function api(agent, baseUrl, method, path, body) {
  const response = await agent.fetch(path, {
    method,
    headers: { 'content-type': 'application/json', 'x-stemdeck-csrf': '1', origin: baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : null;
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

/**
 * Samples the named processes every second until stopped; each sample carries its time. `extra`, when given,
 * is awaited at each tick and its result kept in the sample as `extra` (e.g. a queue's backlog).
 */
export function startSampler(pids, extra) {
  const samples = [];
  const take = async () => {
    const sample = { at: Date.now(), machine: readMachine(), procs: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, readProc(pid)])) };
    samples.push(sample);
    if (extra) sample.extra = await extra().catch(() => null);
  };
  void take();
  const timer = setInterval(take, 1000);
  return {
    samples,
    async stop() {
      clearInterval(timer);
      await take();
      return samples;
    },
  };
}

/** CPU % (of one core) and RSS (mean, peak) per process over [from, to]. */
export function usage(samples, from, to) {
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

/** Report lines for `usage`: the named processes one per line, the rest summed, then the machine. */
export function usageLines(load, named, loadBefore) {
  const lines = [];
  for (const name of named.filter((n) => load.processes[n])) {
    const entry = load.processes[name];
    lines.push(`  ${name.padEnd(32)}CPU ${fixed(entry.cpuPercent)} % of a core, RSS ${fixed(entry.rssMbMean, 0)} MB mean, ${fixed(entry.rssMbPeak, 0)} MB peak`);
  }
  const rest = Object.entries(load.processes).filter(([name]) => !named.includes(name));
  lines.push(`  rest of the stack               CPU ${fixed(rest.reduce((sum, [, entry]) => sum + entry.cpuPercent, 0))} % of a core (${rest.map(([name, entry]) => `${name} ${fixed(entry.cpuPercent)}`).join(', ')})`);
  lines.push(`  outside this run                CPU ${fixed(load.outsideCpuPercent)} % of a core (other work on the machine)`);
  lines.push(`  machine                         ${fixed(load.machineBusyPercent)} % busy over the ${fixed(load.seconds, 0)} s window (${load.cores} cores, load average before: ${loadBefore})`);
  return lines;
}

// ---------------------------------------------------------------- k6

let k6Child = null;

/**
 * Runs `k6 run` on load/<script> with `-e` variables; resolves with its exit code (or signal) once it ends.
 * `onStart` gets the child as soon as it is spawned (to sample it). `logFile`, when given, receives k6's
 * own log lines (console.* of the script included) as JSON.
 */
export function runK6(k6, script, env, { onStart, logFile } = {}) {
  return new Promise((resolve, reject) => {
    const args = ['run', '--quiet', '--no-usage-report'];
    if (logFile) args.push('--log-format', 'json', '--log-output', `file=${logFile}`);
    for (const [name, value] of Object.entries(env)) args.push('-e', `${name}=${value}`);
    args.push(join(ROOT, 'load', script));
    const child = spawn(k6, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
    k6Child = child;
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      k6Child = null;
      resolve({ pid: child.pid, code: code ?? signal });
    });
    onStart?.(child);
  });
}

/**
 * Runs a runner's `main` (resolving to its exit code): Ctrl-C or a failure stops k6 and everything the stack
 * started before the process exits.
 */
export function runLoadMain(main, log) {
  process.on('SIGINT', () => {
    k6Child?.kill('SIGTERM');
    void stopAll().then(() => process.exit(130));
  });
  main()
    .then((code) => process.exit(code))
    .catch(async (error) => {
      log(error.message);
      k6Child?.kill('SIGTERM');
      await stopAll();
      process.exit(1);
    });
}

// ---------------------------------------------------------------- figures

export const metric = (summary, name, stat) => summary.metrics[name]?.values?.[stat] ?? 0;
export const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
