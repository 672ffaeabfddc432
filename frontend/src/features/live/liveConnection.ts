import type { LiveClientMessage, LiveErrorMessage, LiveServerMessage, ParsedLiveFrame } from '@stemdeck/proto/live';

export type LiveStatus = 'disconnected' | 'connecting' | 'connected';
export type { LiveClientMessage, LiveServerMessage };

/** The live protocol's validator for what the gateway sends (proto's `parseServerFrame`). */
export type ServerFrameParser = (text: string) => ParsedLiveFrame<LiveServerMessage>;

/** The validator and its schemas (zod) load with the first live connection, outside the main bundle. */
const loadServerFrameParser = (): Promise<ServerFrameParser> => import('@stemdeck/proto/live').then((protocol) => protocol.parseServerFrame);

interface MinimalSocket {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export interface LiveConnectionOptions {
  url: string;
  onStatus?: (status: LiveStatus) => void;
  /** Messages from the gateway, checked against the live protocol (proto/src/live.ts). */
  onMessage?: (message: LiveServerMessage) => void;
  /** A frame the protocol's validator refused, as the typed error it became (also logged). */
  onInvalid?: (error: LiveErrorMessage) => void;
  /** Delay before reconnecting after a close (3000 ms). */
  retryMs?: number;
  createSocket?: (url: string) => MinimalSocket;
  /** The validator to use from the start (else loaded on construction; frames that come before it wait). */
  parseFrame?: ServerFrameParser;
  logger?: Pick<Console, 'warn' | 'error' | 'debug'>;
}

const OPEN = 1;

/** ws: or wss: URL of /ws on the page's own host. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/**
 * The studio's live connection: connects to /ws, reconnects 3 s after any close until stopped, closes
 * cleanly on stop. Every incoming frame goes through the protocol's one validator; what it refuses is
 * logged as its typed error and never reaches the app. Sending while not connected only warns.
 * Plain TypeScript (no React) so it is testable on its own.
 */
export class LiveConnection {
  private socket?: MinimalSocket;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private stopped = true;
  private currentStatus: LiveStatus = 'disconnected';
  private currentConnectionId: string | null = null;
  private readonly retryMs: number;
  private readonly logger: Pick<Console, 'warn' | 'error' | 'debug'>;
  private parseFrame?: ServerFrameParser;
  private readonly parserLoaded: Promise<ServerFrameParser>;

  constructor(private readonly options: LiveConnectionOptions) {
    this.retryMs = options.retryMs ?? 3000;
    this.logger = options.logger ?? console;
    this.parseFrame = options.parseFrame;
    this.parserLoaded = options.parseFrame ? Promise.resolve(options.parseFrame) : loadServerFrameParser();
    void this.parserLoaded.then(
      (parse) => (this.parseFrame = parse),
      (error: unknown) => this.logger.error('live connection: the protocol validator did not load', error),
    );
  }

  get status(): LiveStatus {
    return this.currentStatus;
  }

  /** This socket's id from the gateway's `welcome` while connected: a stem save names it so the change is not echoed here. */
  get connectionId(): string | null {
    return this.currentConnectionId;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = socket.onerror = socket.onmessage = socket.onopen = null;
      socket.close(1000, 'client closed');
    }
    this.setStatus('disconnected');
  }

  /** Returns whether the message went out. */
  send(message: LiveClientMessage): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) {
      this.logger.warn(`live connection not open; dropped "${message.type}" message`);
      return false;
    }
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private connect(): void {
    this.setStatus('connecting');
    const socket = (this.options.createSocket ?? ((url) => new WebSocket(url) as unknown as MinimalSocket))(this.options.url);
    this.socket = socket;
    socket.onopen = () => this.setStatus('connected');
    socket.onmessage = (event) => {
      const text = String(event.data);
      // Frames that beat the validator's loading wait for it, in order (its own callback runs first).
      if (this.parseFrame) this.receive(this.parseFrame, text);
      else void this.parserLoaded.then((parse) => this.socket === socket && this.receive(parse, text));
    };
    socket.onerror = () => this.logger.debug('live connection error');
    socket.onclose = () => {
      this.socket = undefined;
      this.currentConnectionId = null;
      this.setStatus('disconnected');
      if (!this.stopped) this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
    };
  }

  private receive(parse: ServerFrameParser, text: string): void {
    const parsed = parse(text);
    if (!parsed.ok) {
      this.logger.error(`live connection: refused a message (${parsed.error.code}): ${parsed.error.message}`);
      this.options.onInvalid?.(parsed.error);
      return;
    }
    if (parsed.message.type === 'welcome') this.currentConnectionId = parsed.message.connectionId;
    this.options.onMessage?.(parsed.message);
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.options.onStatus?.(status);
  }
}
