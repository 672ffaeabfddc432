import { VISUAL_MODES } from '../visualizer/visualFrame';
import { decodeFrame, encodeFrame } from './frameCodec';
import { outputLinkAddress, outputSocketUrl, RemoteOutputs, sessionOutputKey, toBase64 } from './outputLink';
import { connectOutputLink, RECONNECT_FIRST_MS, RECONNECT_MAX_MS, type OutputLinkState } from './outputLinkSocket';
import type { LiveChannel } from '../../live/useLiveConnection';
import type { LiveClientMessage, LiveServerMessage } from '../../live/liveConnection';

function fakeChannel(connected: boolean) {
  const sent: LiveClientMessage[] = [];
  let listener: ((message: LiveServerMessage) => void) | null = null;
  const channel: LiveChannel = {
    send: (message) => (sent.push(message), true),
    subscribe: (l) => ((listener = l), () => (listener = null)),
    connectionId: () => (connected ? 'c1' : null),
    saveStem: () => null,
  };
  return { channel, sent, receive: (message: LiveServerMessage) => listener?.(message) };
}

describe('output links', () => {
  it('makes a 128-bit base64url key once per browser session', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const key = sessionOutputKey(storage);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(sessionOutputKey(storage)).toBe(key);
    expect(sessionOutputKey(null)).not.toBe(key);
    expect(outputLinkAddress('https://studio.example', key)).toBe(`https://studio.example/output?key=${key}`);
    expect(outputSocketUrl({ protocol: 'https:', host: 'studio.example' }, key)).toBe(`wss://studio.example/ws/output?key=${key}`);
  });

  it('registers the key on the live socket (again after a reconnect) and sends frames only while outputs listen', () => {
    const { channel, sent, receive } = fakeChannel(true);
    const outputs = new RemoteOutputs('AAAAAAAAAAAAAAAAAAAAAA');
    const counts: number[] = [];
    outputs.watch((count) => counts.push(count));
    outputs.attach(channel);
    expect(sent).toEqual([{ type: 'output_key', key: 'AAAAAAAAAAAAAAAAAAAAAA' }]);
    const frame = encodeFrame('bars3d', { waveform: new Uint8Array(2048).fill(128), spectrum: new Uint8Array(1024).fill(9), pulse: 1, beat: true, bpm: 128, timeMs: 0 }, 5);
    outputs.send(frame);
    expect(sent).toHaveLength(1);
    receive({ type: 'output_presence', count: 1 });
    outputs.send(frame);
    const message = sent[1] as Extract<LiveClientMessage, { type: 'output_frame' }>;
    expect(message.type).toBe('output_frame');
    expect(message.data.length).toBeLessThanOrEqual(Math.ceil(4096 / 3) * 4);
    const bytes = Uint8Array.from(atob(message.data), (c) => c.charCodeAt(0));
    expect(decodeFrame(bytes.buffer)?.mode).toBe('bars3d');
    receive({ type: 'welcome', userId: 'u', connectionId: 'c2', protocol: 1 } as LiveServerMessage);
    expect(sent.at(-1)).toEqual({ type: 'output_key', key: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(counts).toEqual([0, 1, 0]); // a new socket counts again from nothing
    expect(VISUAL_MODES).toContain('bars3d');
    expect(toBase64(new Uint8Array([0, 255]).buffer)).toBe('AP8=');
  });

  it('reopens the output socket with back-off and reports a key that is not active in plain words', () => {
    const sockets: Array<{ binaryType: string; onopen: (() => void) | null; onmessage: ((e: { data: unknown }) => void) | null; onclose: ((e: { code: number; reason: string }) => void) | null; close: () => void }> = [];
    const timers: Array<{ callback: () => void; ms: number }> = [];
    const states: OutputLinkState[] = [];
    const frames: ArrayBuffer[] = [];
    const stop = connectOutputLink({
      url: 'ws://x/ws/output?key=k',
      onFrame: (data) => frames.push(data),
      onState: (state) => states.push(state),
      createSocket: () => {
        const socket = { binaryType: '', onopen: null, onmessage: null, onclose: null, close: jest.fn() };
        sockets.push(socket);
        return socket;
      },
      setTimer: (callback, ms) => timers.push({ callback, ms }),
      clearTimer: () => undefined,
    });
    sockets[0]!.onclose!({ code: 4404, reason: 'This output link is not active' });
    expect(states.at(-1)).toEqual({ state: 'inactive', reason: 'This output link is not active' });
    for (let i = 0; i < 6; i++) {
      timers.at(-1)!.callback();
      sockets.at(-1)!.onclose!({ code: 1006, reason: '' });
    }
    expect(timers.map((t) => t.ms)).toEqual([RECONNECT_FIRST_MS, 2000, 4000, 8000, RECONNECT_MAX_MS, RECONNECT_MAX_MS, RECONNECT_MAX_MS]);
    expect(states.at(-1)).toEqual({ state: 'offline' });
    timers.at(-1)!.callback();
    sockets.at(-1)!.onopen!();
    sockets.at(-1)!.onmessage!({ data: new ArrayBuffer(20) });
    expect(frames).toHaveLength(1);
    sockets.at(-1)!.onclose!({ code: 1006, reason: '' });
    expect(timers.at(-1)!.ms).toBe(RECONNECT_FIRST_MS);
    timers.at(-1)!.callback();
    const opened = sockets.length;
    stop();
    expect(sockets.at(-1)!.close).toHaveBeenCalled();
    expect(sockets).toHaveLength(opened);
  });
});
