import type { LiveChannel } from '../../live/useLiveConnection';
import { OUTPUT_ROUTE } from './outputRoute';

/**
 * Output links: the /output page in another browser (an OBS Browser Source, a second computer) has no
 * BroadcastChannel to this tab and no sign-in. So this studio page makes a random 128-bit key, remembered for
 * the browser session, registers it on its signed-in live socket (`output_key`, again after every
 * reconnect), and the page at `<origin>/output?key=<key>` receives the frames through the gateway. The
 * gateway says how many such pages listen (`output_presence`); frames are sent only while some do, at most
 * REMOTE_FRAMES_PER_SECOND (about 2.8 KB each as base64 JSON, so about 84 KB/s while an OBS source is open).
 */
const KEY_STORAGE = 'stemdeck.output.key';
export const REMOTE_FRAME_EVERY_MS = 1000 / 30;
/** The receive-only socket's path (the gateway's OUTPUT_SOCKET_PATH) and its "link not active" close code. */
export const OUTPUT_SOCKET_PATH = '/ws/output';
export const OUTPUT_INACTIVE_CLOSE_CODE = 4404;

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function newOutputKey(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** This browser session's key (a new one per session; a copied link keeps working while the session lasts). */
export function sessionOutputKey(storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeSessionStorage()): string {
  const saved = storage?.getItem(KEY_STORAGE);
  if (saved && /^[A-Za-z0-9_-]{22}$/.test(saved)) return saved;
  const key = newOutputKey();
  storage?.setItem(KEY_STORAGE, key);
  return key;
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const outputLinkAddress = (origin: string, key: string): string => `${origin}${OUTPUT_ROUTE}?key=${key}`;

/** ws: or wss: address of the receive-only output socket on the page's own host. */
export function outputSocketUrl(location: Pick<Location, 'protocol' | 'host'>, key: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${OUTPUT_SOCKET_PATH}?key=${encodeURIComponent(key)}`;
}

export function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x2000) text += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  return btoa(text);
}

/** The studio's side: registers the key on the live socket, follows the count of remote outputs, sends frames. */
export class RemoteOutputs {
  private channel: LiveChannel | null = null;
  private unsubscribe: (() => void) | null = null;
  private listening = 0;
  private readonly listeners = new Set<(count: number) => void>();

  constructor(readonly key: string) {}

  /** Uses this live channel (the studio's; a new one replaces the old). */
  attach(channel: LiveChannel): void {
    if (this.channel === channel) return;
    this.unsubscribe?.();
    this.channel = channel;
    this.setCount(0);
    this.unsubscribe = channel.subscribe((message) => {
      if (message.type === 'welcome') {
        // A new socket: the gateway knows no outputs of it until it has registered the key again.
        this.setCount(0);
        channel.send({ type: 'output_key', key: this.key });
      }
      else if (message.type === 'output_presence') this.setCount(message.count);
    });
    if (channel.connectionId() !== null) channel.send({ type: 'output_key', key: this.key });
  }

  /** Calls `listener` with the number of remote outputs now and on every change, until the returned function is called. */
  watch(listener: (count: number) => void): () => void {
    this.listeners.add(listener);
    listener(this.listening);
    return () => this.listeners.delete(listener);
  }

  get count(): number {
    return this.listening;
  }

  send(frame: ArrayBuffer): void {
    if (this.listening > 0) this.channel?.send({ type: 'output_frame', data: toBase64(frame) });
  }

  private setCount(count: number): void {
    if (count === this.listening) return;
    this.listening = count;
    for (const listener of this.listeners) listener(count);
  }
}

let studioRemoteOutputs: RemoteOutputs | null = null;
/** The studio tab's one RemoteOutputs (made on first use, with this session's key). */
export function remoteOutputs(): RemoteOutputs {
  studioRemoteOutputs ??= new RemoteOutputs(sessionOutputKey());
  return studioRemoteOutputs;
}
