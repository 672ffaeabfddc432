/**
 * The session clock: this browser's estimate of the server's clock, NTP-style, from /ws `ping` → `pong`
 * round trips. For one round trip sent at t0 and answered at t3 (both performance.now()), the server's
 * `serverTime` was read somewhere between them; assuming it sits in the middle,
 *   offset = serverTime − (wall(t0) + wall(t3)) / 2,   wall(t) = performance.timeOrigin + t,
 * and the error is at most half the round trip. Of the last few samples the one with the smallest round trip
 * is kept (the least queued, so the most symmetric). A burst at the start settles it quickly; then one ping
 * every few seconds follows drift and a changing network.
 */

/** The ping the clock sends (a `ping` of the /ws protocol with a string id of its own). */
export interface ClockPing {
  type: 'ping';
  id: string;
}

/** The part of a `pong` the clock reads. */
export interface ClockPong {
  id: string | number | null;
  serverTime: number;
}

export interface SessionClockOptions {
  /** Pings in the burst that starts the clock. */
  burst?: number;
  /** Between the burst's pings, ms. */
  burstIntervalMs?: number;
  /** Between later pings, ms. */
  intervalMs?: number;
  /** How many recent samples the best one is chosen from. */
  window?: number;
  /** A ping not answered within this long is forgotten, ms. */
  timeoutMs?: number;
  /** performance.now() and performance.timeOrigin (swapped in tests). */
  now?: () => number;
  timeOrigin?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

interface Sample {
  offsetMs: number;
  rttMs: number;
}

const ID_PREFIX = 'clock-';

/**
 * NTP-style offset of the server's clock from this browser's. Constructed with a `send` that puts a ping on
 * the /ws socket (returns false when it could not); feed it every `pong` with `onPong(pong, performance.now())`
 * (pongs it did not ask for are ignored). `start()` sends a burst of pings and then one every few seconds;
 * `stop()` ends that. Until the first pong, `serverNow()` is the local clock (`synced` false).
 */
export class SessionClock {
  private readonly sent = new Map<string, number>();
  private samples: Sample[] = [];
  private best: Sample | null = null;
  private nextId = 0;
  private timer: unknown = null;
  private readonly listeners = new Set<() => void>();
  private readonly options: Required<Omit<SessionClockOptions, 'now' | 'timeOrigin' | 'setTimer' | 'clearTimer'>>;
  private readonly now: () => number;
  private readonly timeOrigin: number;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(
    private readonly send: (ping: ClockPing) => boolean | void,
    options: SessionClockOptions = {},
  ) {
    this.options = {
      burst: options.burst ?? 5,
      burstIntervalMs: options.burstIntervalMs ?? 150,
      intervalMs: options.intervalMs ?? 4000,
      window: options.window ?? 8,
      timeoutMs: options.timeoutMs ?? 5000,
    };
    this.now = options.now ?? (() => performance.now());
    this.timeOrigin = options.timeOrigin ?? performance.timeOrigin;
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  /** Server clock minus this browser's wall clock, ms (0 until the first sample). */
  get offsetMs(): number {
    return this.best?.offsetMs ?? 0;
  }

  /** The round trip of the sample the offset comes from, ms (null until the first sample): the offset is right within half of it. */
  get rttMs(): number | null {
    return this.best?.rttMs ?? null;
  }

  /** Whether at least one pong has come back. */
  get synced(): boolean {
    return this.best !== null;
  }

  /** The server's clock now, epoch ms. */
  serverNow(): number {
    return this.serverTimeAt(this.now());
  }

  /** The server's clock at a performance.now() reading, epoch ms. */
  serverTimeAt(perfNow: number): number {
    return this.timeOrigin + perfNow + this.offsetMs;
  }

  /** The performance.now() reading at which the server's clock reads `serverTime`. */
  perfTimeOf(serverTime: number): number {
    return serverTime - this.offsetMs - this.timeOrigin;
  }

  /** Called whenever the estimate changes (a better or newer best sample). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A burst of pings now, then one every few seconds until `stop()`. Calling it again restarts the burst. */
  start(): void {
    this.stop();
    let left = this.options.burst;
    const tick = () => {
      this.ping();
      left--;
      this.timer = this.setTimer(tick, left > 0 ? this.options.burstIntervalMs : this.options.intervalMs);
    };
    tick();
  }

  stop(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  /** Sends one ping (unless the socket is not open). */
  ping(): void {
    const id = `${ID_PREFIX}${++this.nextId}`;
    const t0 = this.now();
    this.forgetStale(t0);
    if (this.send({ type: 'ping', id }) === false) return;
    this.sent.set(id, t0);
  }

  /** A pong arrived at `receivedAtPerfNow` (performance.now() when the frame came in). */
  onPong(pong: ClockPong, receivedAtPerfNow: number = this.now()): void {
    if (typeof pong.id !== 'string') return;
    const t0 = this.sent.get(pong.id);
    if (t0 === undefined) return;
    this.sent.delete(pong.id);
    const t3 = receivedAtPerfNow;
    const rttMs = Math.max(0, t3 - t0);
    const offsetMs = pong.serverTime - (this.timeOrigin + t0 + (this.timeOrigin + t3)) / 2;
    this.samples.push({ offsetMs, rttMs });
    if (this.samples.length > this.options.window) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rttMs < a.rttMs ? b : a));
    const changed = best !== this.best;
    this.best = best;
    if (changed) for (const listener of this.listeners) listener();
  }

  /** Stops pinging and forgets unanswered pings; `start()` may follow again (React's development remount). */
  dispose(): void {
    this.stop();
    this.sent.clear();
  }

  private forgetStale(now: number): void {
    for (const [id, t0] of this.sent) if (now - t0 > this.options.timeoutMs) this.sent.delete(id);
  }
}
