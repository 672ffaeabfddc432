import { parseServerFrame } from '@stemdeck/proto/live';
import { LiveConnection, liveUrl, type LiveStatus } from './liveConnection';

class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith?: number;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

describe('LiveConnection', () => {
  let statuses: LiveStatus[];
  let logger: { warn: jest.Mock; error: jest.Mock; debug: jest.Mock };
  let received: unknown[];
  const make = () =>
    new LiveConnection({
      url: 'ws://localhost/ws',
      createSocket: (url) => new FakeSocket(url),
      onStatus: (s) => statuses.push(s),
      onMessage: (m) => received.push(m),
      parseFrame: parseServerFrame,
      logger,
    });

  beforeEach(() => {
    jest.useFakeTimers();
    FakeSocket.instances = [];
    statuses = [];
    received = [];
    logger = { warn: jest.fn(), error: jest.fn(), debug: jest.fn() };
  });
  afterEach(() => jest.useRealTimers());

  it('derives ws/wss from the page protocol', () => {
    expect(liveUrl({ protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/ws');
    expect(liveUrl({ protocol: 'https:', host: 'studio.example' })).toBe('wss://studio.example/ws');
  });

  it('connects, reconnects 3 s after a close, and stops cleanly', () => {
    const live = make();
    live.start();
    FakeSocket.instances[0]!.open();
    expect(statuses).toEqual(['connecting', 'connected']);

    FakeSocket.instances[0]!.drop();
    expect(statuses.at(-1)).toBe('disconnected');
    jest.advanceTimersByTime(2999);
    expect(FakeSocket.instances).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]!.open();

    live.stop();
    expect(FakeSocket.instances[1]!.closedWith).toBe(1000);
    jest.advanceTimersByTime(10_000);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(statuses.at(-1)).toBe('disconnected');
  });

  it('only warns when sending while not connected', () => {
    const live = make();
    expect(live.send({ type: 'pad_trigger', pad: 'Drums', velocity: 127 })).toBe(false);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('pad_trigger'));
    live.start();
    FakeSocket.instances[0]!.open();
    expect(live.send({ type: 'pad_trigger', pad: 'Drums', velocity: 127 })).toBe(true);
    expect(JSON.parse(FakeSocket.instances[0]!.sent[0]!)).toEqual({ type: 'pad_trigger', pad: 'Drums', velocity: 127 });
  });

  it('delivers typed messages and only logs unparsable ones', () => {
    const live = make();
    live.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    socket.onmessage?.({ data: '{"type":"welcome","userId":"u1","connectionId":"c1","protocol":1}' });
    socket.onmessage?.({ data: 'garbage' });
    socket.onmessage?.({ data: '{"no":"type"}' });
    expect(received).toEqual([{ type: 'welcome', userId: 'u1', connectionId: 'c1', protocol: 1 }]);
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(live.connectionId).toBe('c1');
    socket.drop();
    expect(live.connectionId).toBeNull();
  });

  it('refuses what the protocol does not allow with a typed error: unknown types, bad fields', () => {
    const invalid: unknown[] = [];
    const live = new LiveConnection({
      url: 'ws://x/ws',
      createSocket: (url) => new FakeSocket(url),
      onMessage: (m) => received.push(m),
      onInvalid: (e) => invalid.push(e),
      parseFrame: parseServerFrame,
      logger,
    });
    live.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    socket.onmessage?.({ data: '{"type":"audio_update","volume":1}' });
    socket.onmessage?.({ data: '{"type":"stems_progress","projectId":"p","engine":"warp","progress":0.5}' });
    socket.onmessage?.({ data: '{"type":"stems_progress","projectId":"p","engine":"fast","progress":0.5}' });
    expect(received).toEqual([{ type: 'stems_progress', projectId: 'p', engine: 'fast', progress: 0.5 }]);
    expect(invalid).toEqual([
      { type: 'error', code: 'unknown_type', message: 'Unknown message type "audio_update"' },
      { type: 'error', code: 'invalid', for: 'stems_progress', message: expect.stringContaining('engine') },
    ]);
  });

  it('saves a stem change over the socket once welcomed, settling on stem_saved, an error with its id, a close or the timeout', async () => {
    const live = new LiveConnection({ url: 'ws://x/ws', createSocket: (url) => new FakeSocket(url), parseFrame: parseServerFrame, saveTimeoutMs: 5000, logger });
    expect(live.saveStem('s1', { muted: true })).toBeNull();
    live.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    expect(live.saveStem('s1', { muted: true })).toBeNull(); // no welcome yet: the caller uses PUT
    socket.onmessage?.({ data: '{"type":"welcome","userId":"u1","connectionId":"c1","protocol":1}' });
    const settled: string[] = [];
    const track = (name: string, save: Promise<void> | null) => void save!.then(() => settled.push(name));

    track('saved', live.saveStem('s1', { muted: true, volume: -3 }));
    track('failed', live.saveStem('s2', { soloed: true }));
    track('timed out', live.saveStem('s3', { volume: 1 }));
    const sent = socket.sent.map((frame) => JSON.parse(frame) as { id: string });
    expect(sent).toEqual([
      { type: 'stem_update', id: expect.any(String), stemId: 's1', muted: true, volume: -3 },
      { type: 'stem_update', id: expect.any(String), stemId: 's2', soloed: true },
      { type: 'stem_update', id: expect.any(String), stemId: 's3', volume: 1 },
    ]);
    expect(new Set(sent.map((m) => m.id)).size).toBe(3);
    socket.onmessage?.({ data: JSON.stringify({ type: 'stem_saved', id: sent[0]!.id }) });
    socket.onmessage?.({ data: JSON.stringify({ type: 'error', code: 'failed', for: 'stem_update', id: sent[1]!.id, message: 'Stem not found' }) });
    await Promise.resolve();
    expect(settled).toEqual(['saved', 'failed']);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('Stem not found'));
    jest.advanceTimersByTime(5000);
    await Promise.resolve();
    expect(settled).toEqual(['saved', 'failed', 'timed out']);

    track('closed', live.saveStem('s1', { muted: false }));
    socket.drop();
    await Promise.resolve();
    expect(settled).toEqual(['saved', 'failed', 'timed out', 'closed']);
    expect(live.saveStem('s1', { muted: false })).toBeNull();
  });

  it('loads the validator itself when given none; frames that come first wait for it, in order', async () => {
    const live = new LiveConnection({ url: 'ws://x/ws', createSocket: (url) => new FakeSocket(url), onMessage: (m) => received.push(m), logger });
    live.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    socket.onmessage?.({ data: '{"type":"welcome","userId":"u1","connectionId":"c1","protocol":1}' });
    socket.onmessage?.({ data: '{"type":"project_deleted","projectId":"p1"}' });
    socket.onmessage?.({ data: '{"type":"audio_update"}' });
    jest.useRealTimers();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([
      { type: 'welcome', userId: 'u1', connectionId: 'c1', protocol: 1 },
      { type: 'project_deleted', projectId: 'p1' },
    ]);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('audio_update'));
  });
});
