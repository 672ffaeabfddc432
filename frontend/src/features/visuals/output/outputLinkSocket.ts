import { OUTPUT_INACTIVE_CLOSE_CODE } from './outputLink';

/** Reconnect delays after a close: 1 s, doubling, at most 15 s; back to 1 s once frames flow. */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_MAX_MS = 15_000;

export type OutputLinkState = { state: 'connecting' } | { state: 'open' } | { state: 'inactive'; reason: string } | { state: 'offline' };

interface MinimalSocket {
  binaryType: string;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  close(): void;
}

export interface OutputLinkOptions {
  url: string;
  onFrame(data: ArrayBuffer): void;
  onState(state: OutputLinkState): void;
  createSocket?: (url: string) => MinimalSocket;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * The /output page's side of an output link: a receive-only socket to the gateway, reopened with back-off
 * after any close (a studio that comes back, a gateway restart) until stopped. A close with the "not active"
 * code carries the plain reason shown on the page.
 */
export function connectOutputLink(options: OutputLinkOptions): () => void {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as MinimalSocket);
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as number));
  let delay = RECONNECT_FIRST_MS;
  let socket: MinimalSocket | null = null;
  let timer: unknown = null;
  let stopped = false;

  const open = () => {
    timer = null;
    options.onState({ state: 'connecting' });
    const current = createSocket(options.url);
    socket = current;
    current.binaryType = 'arraybuffer';
    current.onopen = () => options.onState({ state: 'open' });
    current.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      delay = RECONNECT_FIRST_MS;
      options.onFrame(event.data);
    };
    current.onclose = (event) => {
      if (stopped || socket !== current) return;
      socket = null;
      options.onState(event.code === OUTPUT_INACTIVE_CLOSE_CODE ? { state: 'inactive', reason: event.reason } : { state: 'offline' });
      timer = setTimer(open, delay);
      delay = Math.min(RECONNECT_MAX_MS, delay * 2);
    };
  };
  open();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    socket?.close();
    socket = null;
  };
}
