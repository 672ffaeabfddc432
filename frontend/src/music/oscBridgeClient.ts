import OSC from 'osc-js';

/** Where `npm run osc-bridge` listens (tools/osc-bridge). */
export const OSC_BRIDGE_URL = 'ws://127.0.0.1:7400';
export const DEFAULT_OSC_TARGET = '127.0.0.1:7000';
/** Looking for a bridge that is not running: after 5 s, then less and less often, up to every 30 s. */
const RETRY_MIN_MS = 5000;
const RETRY_MAX_MS = 30000;
const SOCKET_OPEN = 1; // WebSocket.OPEN

export type OscBridgeState = 'connecting' | 'connected' | 'not-running' | 'error';
export interface OscBridgeStatus {
  state: OscBridgeState;
  /** The UDP target the bridge reports, once connected. */
  target: string | null;
  message: string | null;
}

/** "host:port" → parts, or an error message naming what is wrong. */
export function parseTarget(text: string): { host: string; port: number } | { error: string } {
  const match = /^\s*([^\s:]+):(\d{1,5})\s*$/.exec(text);
  if (!match) return { error: 'Enter the OSC target as host:port, e.g. 127.0.0.1:7000' };
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return { error: 'The port must be between 1 and 65535' };
  return { host: match[1]!, port };
}

/**
 * The browser side of the OSC bridge: OSC packets encoded with osc-js go over a local WebSocket, the
 * bridge sends them as UDP. The state is the bridge's real one: connected (it answered), not running
 * (nothing listens; retried after 5 s, backing off to 30 s), or error (what the bridge reported).
 */
export class OscBridgeClient {
  private socket: WebSocket | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private retryMs = RETRY_MIN_MS;
  private wantedTarget: { host: string; port: number } | null = null;
  private current: OscBridgeStatus = { state: 'not-running', target: null, message: null };
  private readonly listeners = new Set<(status: OscBridgeStatus) => void>();

  constructor(private readonly url = OSC_BRIDGE_URL) {}

  get status(): OscBridgeStatus {
    return this.current;
  }

  onStatus(listener: (status: OscBridgeStatus) => void): () => void {
    this.listeners.add(listener);
    listener(this.current);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  /** Points the bridge at a UDP target: applied now if connected; otherwise it looks for the bridge again at once. */
  setTarget(target: { host: string; port: number }): void {
    this.wantedTarget = target;
    if (this.socket?.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify({ type: 'target', ...target }));
    else if (this.running && !this.socket) {
      if (this.retry) clearTimeout(this.retry);
      this.retryMs = RETRY_MIN_MS;
      this.connect();
    }
  }

  /** Sends one OSC message; false when the bridge is not connected. */
  send(address: string, args: Array<number | string>): boolean {
    if (this.socket?.readyState !== SOCKET_OPEN) return false;
    this.socket.send(new OSC.Message(address, ...args).pack());
    return true;
  }

  private connect(): void {
    this.update({ state: 'connecting', target: null, message: null });
    const socket = new WebSocket(this.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.retryMs = RETRY_MIN_MS;
      if (this.wantedTarget) socket.send(JSON.stringify({ type: 'target', ...this.wantedTarget }));
    };
    socket.onmessage = (event) => {
      let message: { type?: string; target?: { host: string; port: number }; message?: string };
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === 'status' && message.target) {
        this.update({ state: 'connected', target: `${message.target.host}:${message.target.port}`, message: null });
      } else if (message.type === 'error') {
        this.update({ ...this.current, state: 'error', message: message.message ?? 'The OSC bridge reported an error' });
      }
    };
    socket.onclose = () => {
      this.socket = null;
      this.update({ state: opened ? 'error' : 'not-running', target: null, message: opened ? 'The OSC bridge closed the connection' : null });
      if (!this.running) return;
      this.retry = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    };
  }

  private update(status: OscBridgeStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}
