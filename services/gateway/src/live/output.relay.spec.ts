import { OUTPUT_INACTIVE_CLOSE_CODE, OUTPUT_INACTIVE_REASON, type LiveServerMessage, type OutputControlReply, type OutputControlRequest } from '@stemdeck/proto';
import type { Clock, IdGenerator } from '@stemdeck/platform';
import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import type { LiveClient, LiveHandler } from './live.hub';
import type { OutputBus } from './output-bus.adapter';
import { hashOutputKey, OUTPUT_JOIN_EVERY_MS, OUTPUT_STALE_MS, OutputRelay } from './output.relay';

/** Core NATS in one process: frames fan out to subscribers, a request goes to the one server of the key. */
class MemoryBus implements OutputBus {
  readonly frameListeners = new Map<string, Set<(frame: Uint8Array) => void>>();
  private readonly servers = new Map<string, (request: OutputControlRequest) => OutputControlReply>();
  published = 0;
  async connect(): Promise<void> {}
  async close(): Promise<void> {}
  publishFrame(keyHash: string, frame: Uint8Array): void {
    this.published++;
    for (const listener of this.frameListeners.get(keyHash) ?? []) listener(frame);
  }
  subscribeFrames(keyHash: string, onFrame: (frame: Uint8Array) => void): () => void {
    const set = this.frameListeners.get(keyHash) ?? new Set();
    set.add(onFrame);
    this.frameListeners.set(keyHash, set);
    return () => set.delete(onFrame);
  }
  serveControl(keyHash: string, handle: (request: OutputControlRequest) => OutputControlReply): () => void {
    this.servers.set(keyHash, handle);
    return () => this.servers.delete(keyHash);
  }
  async request(keyHash: string, request: OutputControlRequest): Promise<OutputControlReply | null> {
    return this.servers.get(keyHash)?.(request) ?? null;
  }
  notify(keyHash: string, request: OutputControlRequest): void {
    this.servers.get(keyHash)?.(request);
  }
}

class FakeHub {
  readonly handlers = new Map<string, LiveHandler>();
  readonly closeListeners: Array<(client: LiveClient) => void> = [];
  on(type: string, handler: LiveHandler): void {
    this.handlers.set(type, handler);
  }
  onClose(listener: (client: LiveClient) => void): void {
    this.closeListeners.push(listener);
  }
  route(): void {}
}

class FakeOutputSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  readonly frames: Uint8Array[] = [];
  closed?: { code: number; reason: string };
  send(data: Uint8Array): void {
    this.frames.push(data);
  }
  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.readyState = WebSocket.CLOSED;
    this.emit('close');
  }
}

const KEY = 'AAAAAAAAAAAAAAAAAAAAAA';
const OTHER_KEY = 'BBBBBBBBBBBBBBBBBBBBBB';

function studio(userId: string, connectionId: string): LiveClient & { sent: LiveServerMessage[] } {
  const sent: LiveServerMessage[] = [];
  return { user: { id: userId } as LiveClient['user'], connectionId, sent, send: (message) => sent.push(message) };
}

/** A frame as the studio encodes it: 'SV', version 1, mode, flags, pulse, tempo, sequence, lengths, bytes. */
function visualFrame(waveform = 8, spectrum = 8): string {
  const bytes = new Uint8Array(16 + waveform + spectrum);
  bytes.set([0x53, 0x56, 1, 0]);
  const view = new DataView(bytes.buffer);
  view.setUint16(12, waveform, true);
  view.setUint16(14, spectrum, true);
  return Buffer.from(bytes).toString('base64');
}

function setup() {
  const bus = new MemoryBus();
  const hub = new FakeHub();
  const clock: Clock & { time: number } = { time: 1_000_000, now() { return this.time; } };
  let id = 0;
  const ids: IdGenerator = { randomUUID: () => `output-${++id}` } as IdGenerator;
  const relay = new OutputRelay(hub as never, bus, clock, ids);
  const send = async (type: string, client: LiveClient, message: object) => hub.handlers.get(type)!(client, { type, ...message } as never);
  return { bus, hub, clock, relay, send };
}

describe('OutputRelay', () => {
  it('hashes keys so the key itself never names a subject', () => {
    expect(hashOutputKey(KEY)).toMatch(/^[0-9a-f]{32}$/);
    expect(hashOutputKey(KEY)).not.toBe(hashOutputKey(OTHER_KEY));
  });

  it('counts the output sockets of a key, tells the studio, and passes its frames to them only', async () => {
    const { relay, send, bus } = setup();
    const owner = studio('u1', 'c1');
    await send('output_key', owner, { key: KEY });
    expect(owner.sent).toEqual([{ type: 'output_presence', count: 0 }]);
    await send('output_frame', owner, { data: visualFrame() });
    expect(bus.published).toBe(0); // nobody listens: nothing travels

    const first = new FakeOutputSocket();
    const second = new FakeOutputSocket();
    await relay.acceptOutput(first, KEY);
    await relay.acceptOutput(second, KEY);
    expect(owner.sent.at(-1)).toEqual({ type: 'output_presence', count: 2 });
    await send('output_frame', owner, { data: visualFrame() });
    expect(first.frames).toHaveLength(1);
    expect(second.frames).toHaveLength(1);
    expect(first.frames[0]!.length).toBe(32);

    first.close(1000, 'bye');
    expect(owner.sent.at(-1)).toEqual({ type: 'output_presence', count: 1 });
    expect(relay.listeners('c1')).toBe(1);
  });

  it('listens before joining: a frame sent the moment the join is answered reaches the output; a refused join leaves no subscription', async () => {
    const { relay, send, bus } = setup();
    const owner = studio('u1', 'c1');
    await send('output_key', owner, { key: KEY });
    const answer = bus.request.bind(bus);
    // The studio's gateway answers the join, and the studio's next frame is on the bus before the answer is back.
    bus.request = async (keyHash, request) => {
      const reply = await answer(keyHash, request);
      bus.publishFrame(keyHash, Buffer.from(visualFrame(), 'base64'));
      return reply;
    };
    const output = new FakeOutputSocket();
    await relay.acceptOutput(output, KEY);
    expect(output.frames).toHaveLength(1);

    bus.request = answer;
    const stranger = new FakeOutputSocket();
    await relay.acceptOutput(stranger, OTHER_KEY);
    expect(stranger.closed).toEqual({ code: OUTPUT_INACTIVE_CLOSE_CODE, reason: OUTPUT_INACTIVE_REASON });
    expect(bus.frameListeners.get(hashOutputKey(OTHER_KEY))?.size ?? 0).toBe(0);
  });

  it('closes an output socket with the plain reason when no studio has its key (or a malformed one)', async () => {
    const { relay } = setup();
    const unknown = new FakeOutputSocket();
    await relay.acceptOutput(unknown, OTHER_KEY);
    expect(unknown.closed).toEqual({ code: OUTPUT_INACTIVE_CLOSE_CODE, reason: OUTPUT_INACTIVE_REASON });
    const malformed = new FakeOutputSocket();
    await relay.acceptOutput(malformed, 'short');
    expect(malformed.closed?.code).toBe(OUTPUT_INACTIVE_CLOSE_CODE);
  });

  it('refuses another user’s registration of a key and lets the owner’s new socket take it over', async () => {
    const { relay, send } = setup();
    const owner = studio('u1', 'c1');
    await send('output_key', owner, { key: KEY });
    const output = new FakeOutputSocket();
    await relay.acceptOutput(output, KEY);
    await expect(send('output_key', studio('u2', 'c2'), { key: KEY })).rejects.toThrow('belongs to another studio');
    const ownersOtherTab = studio('u1', 'c3');
    await send('output_key', ownersOtherTab, { key: KEY });
    expect(ownersOtherTab.sent).toEqual([{ type: 'output_presence', count: 1 }]);
    expect(relay.listeners('c3')).toBe(1);
  });

  it('drops frames over the rate and refuses what is not a visual frame', async () => {
    const { relay, send, bus, clock } = setup();
    const owner = studio('u1', 'c1');
    await send('output_key', owner, { key: KEY });
    await relay.acceptOutput(new FakeOutputSocket(), KEY);
    for (let i = 0; i < 100; i++) await send('output_frame', owner, { data: visualFrame() });
    expect(bus.published).toBe(60);
    clock.time += 1000;
    await send('output_frame', owner, { data: visualFrame() });
    expect(bus.published).toBe(61);
    await expect(send('output_frame', owner, { data: Buffer.from('{"user":"secret"}').toString('base64') })).rejects.toThrow('Not a visual frame');
    await expect(send('output_frame', studio('u1', 'c9'), { data: visualFrame() })).rejects.toThrow('output_key');
  });

  it('forgets silent outputs, and closes outputs when the studio socket goes', async () => {
    const { relay, send, hub, clock } = setup();
    const owner = studio('u1', 'c1');
    await send('output_key', owner, { key: KEY });
    const output = new FakeOutputSocket();
    await relay.acceptOutput(output, KEY);
    clock.time += OUTPUT_JOIN_EVERY_MS;
    await relay.tick(); // the output joins again: still counted
    expect(relay.listeners('c1')).toBe(1);
    hub.closeListeners.forEach((listener) => listener(owner));
    expect(output.closed).toEqual({ code: OUTPUT_INACTIVE_CLOSE_CODE, reason: OUTPUT_INACTIVE_REASON });

    // An output whose gateway vanished (no leave, no joins) drops out of the count.
    const again = studio('u1', 'c2');
    await send('output_key', again, { key: KEY });
    const ghost = new FakeOutputSocket();
    await relay.acceptOutput(ghost, KEY);
    ghost.removeAllListeners('close');
    ghost.readyState = WebSocket.CLOSED;
    (relay as unknown as { outputs: Map<string, unknown> }).outputs.clear();
    clock.time += OUTPUT_STALE_MS + 1;
    await relay.tick();
    expect(again.sent.at(-1)).toEqual({ type: 'output_presence', count: 0 });
  });
});
