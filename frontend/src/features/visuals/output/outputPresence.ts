/**
 * Browser output windows (the /output route: the visualizer full screen for a projector or an OBS Browser
 * Source) announce themselves to the studio on a BroadcastChannel of this origin. An output window says
 * 'hello' when it opens, beats every second while open, and 'bye' when it closes; the studio counts a
 * window as open while its last word is newer than OUTPUT_STALE_MS — a crashed or frozen window drops out
 * within that time even without its 'bye'.
 */
export const OUTPUT_CHANNEL = 'stemdeck-output';
export const OUTPUT_HEARTBEAT_MS = 1000;
export const OUTPUT_STALE_MS = 3500;

export type OutputMessage =
  | { type: 'hello' | 'heartbeat' | 'bye'; windowId: string }
  /** The studio asks every open window to say where it is (so a studio opened after the window sees it at once). */
  | { type: 'who' };

/** The part of BroadcastChannel used here (a fake one in the unit tests). */
export interface OutputChannel {
  postMessage(message: OutputMessage): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export interface PresenceClock {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const browserClock: PresenceClock = {
  now: () => Date.now(),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as number),
};

const openChannel = (): OutputChannel | null =>
  typeof BroadcastChannel === 'undefined' ? null : (new BroadcastChannel(OUTPUT_CHANNEL) as unknown as OutputChannel);

function isOutputMessage(data: unknown): data is OutputMessage {
  const message = data as Partial<{ type: string; windowId: unknown }> | null;
  if (!message || typeof message.type !== 'string') return false;
  if (message.type === 'who') return true;
  return ['hello', 'heartbeat', 'bye'].includes(message.type) && typeof message.windowId === 'string';
}

/** The output window's side: announces itself until the returned function is called (on unmount or page hide). */
export function announceOutputWindow(
  windowId: string,
  channel: OutputChannel | null = openChannel(),
  clock: PresenceClock = browserClock,
): () => void {
  if (!channel) return () => undefined;
  const say = (type: 'hello' | 'heartbeat') => channel.postMessage({ type, windowId });
  channel.onmessage = (event) => {
    if (isOutputMessage(event.data) && event.data.type === 'who') say('hello');
  };
  say('hello');
  const timer = clock.setInterval(() => say('heartbeat'), OUTPUT_HEARTBEAT_MS);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    clock.clearInterval(timer);
    channel.postMessage({ type: 'bye', windowId });
    channel.close();
  };
}

/**
 * The studio's side: calls `listener` with the number of open output windows now and whenever it changes,
 * until the returned function is called.
 */
export function watchOutputWindows(
  listener: (openWindows: number) => void,
  channel: OutputChannel | null = openChannel(),
  clock: PresenceClock = browserClock,
): () => void {
  if (!channel) {
    listener(0);
    return () => undefined;
  }
  const lastSeen = new Map<string, number>();
  let reported = -1;
  const report = () => {
    const now = clock.now();
    for (const [id, at] of lastSeen) if (now - at > OUTPUT_STALE_MS) lastSeen.delete(id);
    if (lastSeen.size !== reported) {
      reported = lastSeen.size;
      listener(reported);
    }
  };
  channel.onmessage = (event) => {
    if (!isOutputMessage(event.data) || event.data.type === 'who') return;
    if (event.data.type === 'bye') lastSeen.delete(event.data.windowId);
    else lastSeen.set(event.data.windowId, clock.now());
    report();
  };
  channel.postMessage({ type: 'who' });
  report();
  const timer = clock.setInterval(report, OUTPUT_HEARTBEAT_MS / 2);
  return () => {
    clock.clearInterval(timer);
    channel.close();
  };
}
