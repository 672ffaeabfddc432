// k6 load script for live collaborative sessions (run by scripts/k6-collab.mjs, which prepares the plan).
//
// Every VU is one participant's browser tab: SESSIONS × PARTICIPANTS sockets at /ws, participants alternating
// between the gateway replicas, each entering its session's live room with `join_session`, then, from the
// common start time t0 for DURATION_MS, playing pads (audio_event pad_trigger, about 2 a second with jitter)
// and moving its cursor (cursor_position, one at least CURSOR_INTERVAL_MS after the last). Every receiver
// counts the pad_triggered and cursor_update messages it gets from the others in its session.
//
// Fan-out latency without a field for it (the messages' schemas are strict, the gateway passes on only
// their fields), on one machine where every VU reads the same clock:
// - cursor_update: the sender writes its send time into the position, x = (send ms mod 10^6) / 10^6 (a number
//   in [0, 1) that JSON carries exactly), so receive time − x·10^6 (mod 10^6) is the latency exactly, to the ms.
// - pad_triggered: each sender plays on a schedule every VU can compute, t(session, participant, k), and
//   numbers its hits k = 64·padIndex + (velocity − 64) (velocities 64–127 over the eight pads: 512 distinct
//   hits, more than the ~240 of a run); the receiver takes receive time − t(...). That includes how late the
//   sender's timer fired, reported alone as pad_send_lag_ms, so the pad figure is an upper bound.
// Both include k6's own scheduling (its VUs share the machine with the stack).
import { WebSocket } from 'k6/websockets';
import { Counter, Trend } from 'k6/metrics';
import exec from 'k6/execution';

const plan = JSON.parse(open(__ENV.PLAN));
const PADS = ['Kick', 'Snare', 'Hi-Hat', 'Open Hat', 'Crash', 'Ride', 'Tom 1', 'Tom 2'];
const PARTICIPANTS = plan.sessions[0].userIds.length;
const VUS = plan.sessions.length * PARTICIPANTS;
const WARMUP_MS = plan.warmupMs;
const DURATION_MS = plan.durationMs;
const DRAIN_MS = plan.drainMs;
const PAD_PERIOD_MS = 500;
const PAD_JITTER_MS = 300;
const CURSOR_INTERVAL_MS = plan.cursorIntervalMs;
const CLOCK_WINDOW = 1_000_000;

export const options = {
  scenarios: {
    jam: {
      executor: 'per-vu-iterations',
      vus: VUS,
      iterations: 1,
      maxDuration: `${Math.ceil((WARMUP_MS + DURATION_MS + DRAIN_MS) / 1000) + 30}s`,
      gracefulStop: '5s',
    },
  },
  setupTimeout: '30s',
  summaryTrendStats: ['min', 'med', 'avg', 'p(90)', 'p(99)', 'max', 'count'],
};

const padsSent = new Counter('pads_sent');
const padsReceived = new Counter('pads_received');
const cursorsSent = new Counter('cursors_sent');
const cursorsReceived = new Counter('cursors_received');
const padLatency = new Trend('pad_fanout_ms', true);
const cursorLatency = new Trend('cursor_fanout_ms', true);
const padSendLag = new Trend('pad_send_lag_ms', true);
const joinMs = new Trend('join_ms', true);
const joined = new Counter('sockets_joined');
const joinFailed = new Counter('join_failed');
const lateJoins = new Counter('late_joins');
const serverErrors = new Counter('server_errors');
const socketErrors = new Counter('socket_errors');
const departures = new Counter('user_left_seen');
const leftEarly = new Counter('session_left');
const strays = new Counter('stray_messages');

/** A small deterministic hash (the same in every VU): the pad schedule's jitter. */
function hash(a, b, c) {
  let h = (a * 73856093) ^ (b * 19349663) ^ (c * 83492791);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** When participant `p` of session `s` plays its k-th pad (epoch ms). */
const padTime = (t0, s, p, k) => t0 + p * 50 + k * PAD_PERIOD_MS + (hash(s, p, k) % PAD_JITTER_MS);
const padOf = (k) => ({ pad: PADS[k >> 6], velocity: 64 + (k & 63) });
const hitOf = (pad, velocity) => PADS.indexOf(pad) * 64 + (velocity - 64);

export function setup() {
  return { t0: Date.now() + WARMUP_MS };
}

export default function (data) {
  const t0 = data.t0;
  const end = t0 + DURATION_MS;
  const vu = exec.vu.idInTest - 1;
  const s = Math.floor(vu / PARTICIPANTS);
  const p = vu % PARTICIPANTS;
  const session = plan.sessions[s];
  const userId = session.userIds[p];
  const user = plan.users[userId];
  const base = plan.baseUrls[p % plan.baseUrls.length];
  const startedAt = Date.now();
  let inRoom = false;
  let cursorTimer = null;
  let padTimer = null;
  let warned = 0;

  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, null, { headers: { Cookie: user.cookie, Origin: base } });

  const warn = (text) => {
    if (warned++ < 3) console.warn(`session ${s} participant ${p}: ${text}`);
  };

  function sendPad(k) {
    const at = padTime(t0, s, p, k);
    if (at >= end || !inRoom) return;
    padTimer = setTimeout(() => {
      if (!inRoom) return;
      ws.send(JSON.stringify({ type: 'audio_event', eventType: 'pad_trigger', eventData: padOf(k) }));
      padsSent.add(1);
      padSendLag.add(Date.now() - at);
      sendPad(k + 1);
    }, Math.max(0, at - Date.now()));
  }

  function sendCursor() {
    const now = Date.now();
    if (now >= end || !inRoom) return;
    ws.send(JSON.stringify({ type: 'cursor_position', position: { x: (now % CLOCK_WINDOW) / CLOCK_WINDOW, y: (p + 0.5) / PARTICIPANTS } }));
    cursorsSent.add(1);
    // From this send's own time: the next is never sooner than the interval, however late this timer fired.
    cursorTimer = setTimeout(sendCursor, CURSOR_INTERVAL_MS);
  }

  ws.onopen = () => ws.send(JSON.stringify({ type: 'join_session', sessionId: session.id, userId }));

  ws.onmessage = (event) => {
    const now = Date.now();
    const message = JSON.parse(event.data);
    switch (message.type) {
      case 'session_joined': {
        inRoom = true;
        joined.add(1);
        joinMs.add(now - startedAt);
        if (now >= t0) {
          lateJoins.add(1);
          warn(`entered the room ${now - t0} ms after the start`);
        }
        setTimeout(sendCursor, Math.max(0, t0 + p * 10 - now));
        sendPad(0);
        setTimeout(() => ws.close(), Math.max(0, end + DRAIN_MS - now));
        break;
      }
      case 'pad_triggered': {
        const sender = session.userIds.indexOf(message.userId);
        if (message.sessionId !== session.id || sender < 0 || sender === p) return strays.add(1);
        padsReceived.add(1);
        padLatency.add(now - padTime(t0, s, sender, hitOf(message.pad, message.velocity)));
        break;
      }
      case 'cursor_update': {
        const sender = session.userIds.indexOf(message.userId);
        if (message.sessionId !== session.id || sender < 0 || sender === p) return strays.add(1);
        cursorsReceived.add(1);
        const sentAt = Math.round(message.position.x * CLOCK_WINDOW);
        cursorLatency.add((((now % CLOCK_WINDOW) - sentAt) % CLOCK_WINDOW + CLOCK_WINDOW) % CLOCK_WINDOW);
        break;
      }
      case 'error':
        if (message.for === 'join_session') {
          joinFailed.add(1);
          warn(`join_session refused: ${message.message}`);
          ws.close();
        } else {
          serverErrors.add(1);
          warn(`error from the gateway: ${JSON.stringify(message)}`);
        }
        break;
      case 'user_left':
        if (now < end) departures.add(1);
        break;
      case 'session_left':
        inRoom = false;
        leftEarly.add(1);
        warn(`left the session: ${message.reason}`);
        break;
      default:
        break;
    }
  };

  ws.onerror = (event) => {
    socketErrors.add(1);
    warn(`socket error: ${event.error}`);
  };

  ws.onclose = () => {
    inRoom = false;
    if (cursorTimer) clearTimeout(cursorTimer);
    if (padTimer) clearTimeout(padTimer);
  };
}

/** The runner reads the figures from this file. */
export function handleSummary(data) {
  return { [__ENV.SUMMARY]: JSON.stringify(data, null, 1) };
}
