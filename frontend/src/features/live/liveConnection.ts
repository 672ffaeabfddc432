import type { LiveClientMessage, LiveErrorMessage, LiveServerMessage, ParsedLiveFrame, StemUpdateMessage } from '@stemdeck/proto/live';

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
  /** How long a stem save waits for the gateway's answer before it counts as finished (10 000 ms). */
  saveTimeoutMs?: number;
  createSocket?: (url: string) => MinimalSocket;
  /** The validator to use from the start (else loaded on construction; frames that come before it wait). */
  parseFrame?: ServerFrameParser;
  logger?: Pick<Console, 'warn' | 'error' | 'debug'>;
}

const OPEN = 1;

/** A mixer change as `stem_update` carries it, without the message's own fields. */
export type StemChange = Omit<StemUpdateMessage, 'type' | 'stemId' | 'id'>;

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
  /** Stem saves sent on this socket and not answered yet, by the id they carry. */
  private readonly stemSaves = new Map<string, () => void>();
  private lastSaveId = 0;
  private readonly saveTimeoutMs: number;

  constructor(private readonly options: LiveConnectionOptions) {
    this.retryMs = options.retryMs ?? 3000;
    this.saveTimeoutMs = options.saveTimeoutMs ?? 10_000;
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
    this.settleAllSaves('connection closed');
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

  /**
   * Sends a mixer change as `stem_update` with an id on the signed-in socket, and settles when the gateway
   * answers that it is stored (`stem_saved`) or failed (an `error` with the id, logged), when the socket
   * closes, or after `saveTimeoutMs`: whatever happens, the caller's next save for the stem can go. Null
   * when not connected (no `welcome` yet): the caller saves another way. A failed save is not retried.
   */
  saveStem(stemId: string, changes: StemChange): Promise<void> | null {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || !this.currentConnectionId) return null;
    const id = `save-${++this.lastSaveId}`;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.settleSave(id, 'no answer in time'), this.saveTimeoutMs);
      this.stemSaves.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      socket.send(JSON.stringify({ type: 'stem_update', id, stemId, ...changes } satisfies StemUpdateMessage));
    });
  }

  private settleSave(id: string, failure?: string): void {
    const settle = this.stemSaves.get(id);
    if (!settle) return;
    this.stemSaves.delete(id);
    if (failure) this.logger.warn(`live connection: stem save ${id} not confirmed: ${failure}`);
    settle();
  }

  private settleAllSaves(failure: string): void {
    for (const id of [...this.stemSaves.keys()]) this.settleSave(id, failure);
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
      this.settleAllSaves('connection closed');
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
    if (parsed.message.type === 'stem_saved') this.settleSave(parsed.message.id);
    if (parsed.message.type === 'error' && parsed.message.id) this.settleSave(parsed.message.id, parsed.message.message);
    this.options.onMessage?.(parsed.message);
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.options.onStatus?.(status);
  }
}
