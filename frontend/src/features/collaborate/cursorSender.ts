import { CURSOR_MIN_INTERVAL_MS } from '@stemdeck/proto/vocabulary';

export interface CursorFraction {
  x: number;
  y: number;
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));

/** A pointer's place on the page as fractions of the page's whole width and height (scrolled parts included). */
export function pageFraction(pageX: number, pageY: number, pageWidth: number, pageHeight: number): CursorFraction {
  return { x: clamp01(pageWidth > 0 ? pageX / pageWidth : 0), y: clamp01(pageHeight > 0 ? pageY / pageHeight : 0) };
}

export interface CursorSenderOptions {
  send: (position: CursorFraction) => void;
  intervalMs?: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Sends the pointer's position at most once per interval (just over 100 ms): the first move at once, the last one of a
 * burst when its interval is over, nothing while the pointer rests.
 */
export class CursorSender {
  private lastSentAt = -Infinity;
  private pending: CursorFraction | null = null;
  private timer: unknown = null;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(private readonly options: CursorSenderOptions) {
    // A little over the gateway's limit: it drops a position that arrives sooner than that after the last, and
    // the network can bring two sent exactly 100 ms apart closer together.
    this.intervalMs = options.intervalMs ?? CURSOR_MIN_INTERVAL_MS + 10;
    this.now = options.now ?? (() => performance.now());
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  moved(position: CursorFraction): void {
    this.pending = position;
    if (this.timer !== null) return;
    const wait = this.lastSentAt + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = this.setTimer(() => this.flush(), wait);
  }

  stop(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private flush(): void {
    this.timer = null;
    if (!this.pending) return;
    const position = this.pending;
    this.pending = null;
    this.lastSentAt = this.now();
    this.options.send(position);
  }
}
