import OSC from 'osc-js';

/** Where the Stemdeck OSC bridge listens (tools/osc-bridge). */
export const OSC_BRIDGE_URL = 'ws://127.0.0.1:7400';
export const DEFAULT_OSC_TARGET = '127.0.0.1:7000';
/**
 * The bridge's routes (its protocol 2): each WebSocket path has its own UDP target. The default route ('/')
 * carries the studio's /stemdeck messages to TouchDesigner or any OSC receiver; '/resolume' carries
 * Resolume's own addresses to Resolume, which listens on 7000 by default.
 */
export type BridgeRoute = 'default' | 'resolume';
export const RESOLUME_BRIDGE_URL = `${OSC_BRIDGE_URL}/resolume`;
export const DEFAULT_RESOLUME_TARGET = '127.0.0.1:7000';
const SOCKET_OPEN = 1; // WebSocket.OPEN

/**
 * Looking for a bridge that is not running: the browser reports every refused connection in the console
 * (no page can stop it), so nobody is looked for unless the person turned OSC output on, and then, after
 * the first look (at once), the waits double from 10 s up to 2 minutes. A person who has just started the
 * bridge asks to look again rather than waiting.
 */
export const PROBE_FIRST_RETRY_MS = 10_000;
export const PROBE_MAX_RETRY_MS = 120_000;

/** The wait before looking again after `failures` looks in a row found nothing (1 → 10 s, 2 → 20 s, … ≤ 2 min). */
export function probeDelayMs(failures: number): number {
  return Math.min(PROBE_MAX_RETRY_MS, PROBE_FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

export type OscBridgeState = 'off' | 'connecting' | 'connected' | 'not-running' | 'error';

/** Where this browser remembers that OSC output is on (a fake one in the unit tests). */
export interface OscPreference {
  read(): boolean;
  write(on: boolean): void;
}
/** An on/off remembered by this browser under `key`. */
export function storedPreference(key: string): OscPreference {
  return {
    read: () => {
      try {
        return localStorage.getItem(key) === 'on';
      } catch {
        return false;
      }
    },
    write: (on) => {
      try {
        if (on) localStorage.setItem(key, 'on');
        else localStorage.removeItem(key);
      } catch {
        // private mode without storage: on for this page only
      }
    },
  };
}
const browserPreference = storedPreference('stemdeck.oscOutput');
/** Whether Resolume is connected (its Connect toggle), remembered like OSC output. */
export const resolumePreference = storedPreference('stemdeck.resolumeOutput');
export interface OscBridgeStatus {
  state: OscBridgeState;
  /** The UDP target the bridge reports, once connected. */
  target: string | null;
  message: string | null;
}

/** An OSC argument: a number goes out as int32 when whole and float32 otherwise; a tagged one as its tag says. */
export type OscArgument = number | string | { type: 'f' | 'i'; value: number };

/** The message a bridge that predates routes (protocol 1) gets on any route but its one. */
export const OLD_BRIDGE_MESSAGE =
  'The OSC bridge running on this computer is an older version with one target for everything; restart it from this version of Stemdeck to send to Resolume separately';

/** "host:port" → parts, or an error message naming what is wrong. */
export function parseTarget(text: string): { host: string; port: number } | { error: string } {
  const match = /^\s*([^\s:]+):(\d{1,5})\s*$/.exec(text);
  if (!match) return { error: 'Enter the OSC target as host:port, e.g. 127.0.0.1:7000' };
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return { error: 'The port must be between 1 and 65535' };
  return { host: match[1]!, port };
}

/** The part of a WebSocket this client uses (a fake one in the unit tests). */
export type BridgeSocket = Pick<WebSocket, 'readyState' | 'send' | 'close' | 'binaryType' | 'onopen' | 'onmessage' | 'onclose'>;
export interface BridgeClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The browser side of one route of the OSC bridge: OSC packets encoded with osc-js go over a local
 * WebSocket, the bridge sends them as UDP to the route's target. The state is the bridge's real one:
 * connected (it answered, and took the target asked for), not running (nothing listens), or error (what
 * the bridge reported). Nothing is sent before it is connected, so every message sent went to the target
 * shown.
 *
 * OSC output is off until the person turns it on (remembered by this browser). While on, it looks for the
 * bridge only while someone watches (the panel that shows its state is on screen), on the back-off above;
 * an open connection stays open without watchers, so playback keeps sending.
 */
export class OscBridgeClient {
  private socket: BridgeSocket | null = null;
  /** The bridge greeted this connection on the right route and took the wanted target: packets may go. */
  private ready = false;
  /** The bridge has greeted this connection (on the right route). */
  private greeted = false;
  private retry: unknown = null;
  private watchers = 0;
  private failures = 0;
  private wantedTarget: { host: string; port: number } | null = null;
  private on: boolean;
  private current: OscBridgeStatus;
  private readonly listeners = new Set<(status: OscBridgeStatus) => void>();

  constructor(
    private readonly openSocket: () => BridgeSocket = () => new WebSocket(OSC_BRIDGE_URL),
    private readonly clock: BridgeClock = { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
    private readonly preference: OscPreference = browserPreference,
    readonly route: BridgeRoute = 'default',
  ) {
    this.on = preference.read();
    this.current = { state: this.on ? 'not-running' : 'off', target: null, message: null };
  }

  /** Whether the person turned OSC output on. */
  get enabled(): boolean {
    return this.on;
  }

  /** Turns OSC output on (looks for the bridge at once when watched) or off (closes it, looks no more). */
  setEnabled(on: boolean): void {
    if (on === this.on) return;
    this.on = on;
    this.preference.write(on);
    this.cancelRetry();
    this.failures = 0;
    if (on) {
      if (this.watchers > 0) this.connect();
      else this.update({ state: 'not-running', target: null, message: null });
      return;
    }
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    this.greeted = false;
    socket?.close();
    this.update({ state: 'off', target: null, message: null });
  }

  get status(): OscBridgeStatus {
    return this.current;
  }

  onStatus(listener: (status: OscBridgeStatus) => void): () => void {
    this.listeners.add(listener);
    listener(this.current);
    return () => this.listeners.delete(listener);
  }

  /** Looks for the bridge while the returned function has not been called (at once, then backing off). */
  watch(): () => void {
    this.watchers++;
    if (this.on && this.watchers === 1 && !this.socket && this.retry === null) this.connect();
    let watching = true;
    return () => {
      if (!watching) return;
      watching = false;
      this.watchers--;
      if (this.watchers === 0) this.cancelRetry();
    };
  }

  /** Looks for the bridge now (the person has just started it), and starts the back-off afresh. */
  lookAgain(): void {
    if (!this.on || this.socket) return;
    this.cancelRetry();
    this.failures = 0;
    this.connect();
  }

  /**
   * Points the route at a UDP target: applied now if connected; sent on the bridge's greeting while it is
   * being looked for; otherwise (output on) it looks for the bridge again at once.
   */
  setTarget(target: { host: string; port: number }): void {
    this.wantedTarget = target;
    if (this.greeted && this.socket?.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify({ type: 'target', ...target }));
    else this.lookAgain();
  }

  /** The target asked for (null until one is). */
  get target(): { host: string; port: number } | null {
    return this.wantedTarget;
  }

  /** Sends one OSC message; false when the bridge is not connected. */
  send(address: string, args: readonly OscArgument[]): boolean {
    if (!this.ready || this.socket?.readyState !== SOCKET_OPEN) return false;
    const message = new OSC.TypedMessage(address, []);
    for (const arg of args) {
      if (typeof arg === 'object') message.add(arg.type, arg.value);
      else if (typeof arg === 'string') message.add('s', arg);
      else message.add(Number.isInteger(arg) ? 'i' : 'f', arg);
    }
    this.socket.send(message.pack());
    return true;
  }

  private cancelRetry(): void {
    if (this.retry !== null) this.clock.clearTimeout(this.retry);
    this.retry = null;
  }

  private connect(): void {
    this.retry = null;
    this.ready = false;
    this.greeted = false;
    this.update({ state: 'connecting', target: null, message: null });
    const socket = this.openSocket();
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    let opened = false;
    /** Lets go of this connection and looks again on the schedule, as for a bridge that went away. */
    const drop = (status: OscBridgeStatus) => {
      this.socket = null;
      this.ready = false;
      this.greeted = false;
      this.update(status);
      this.failures = opened ? 1 : this.failures + 1;
      if (this.watchers > 0) this.retry = this.clock.setTimeout(() => this.connect(), probeDelayMs(this.failures));
    };
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      let message: { type?: string; route?: string; target?: { host: string; port: number }; message?: string };
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === 'status' && message.target) {
        const target = message.target;
        if (!this.greeted) {
          // A protocol 1 bridge greets every path with its one target and no route: right for '/' only.
          if ((message.route ?? 'default') !== this.route) {
            socket.close();
            return drop({ state: 'error', target: null, message: OLD_BRIDGE_MESSAGE });
          }
          this.greeted = true;
          const wanted = this.wantedTarget;
          if (wanted && (wanted.host !== target.host || wanted.port !== target.port)) {
            // Connected once the bridge has taken it: its next status (or an error naming what is wrong).
            socket.send(JSON.stringify({ type: 'target', ...wanted }));
            return;
          }
        }
        this.ready = true;
        this.update({ state: 'connected', target: `${target.host}:${target.port}`, message: null });
      } else if (message.type === 'error') {
        this.update({ ...this.current, state: 'error', message: message.message ?? 'The OSC bridge reported an error' });
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      // A bridge that was there and went away is looked for again from the start of the schedule.
      drop({ state: opened ? 'error' : 'not-running', target: null, message: opened ? 'The OSC bridge closed the connection' : null });
    };
  }

  private update(status: OscBridgeStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}
