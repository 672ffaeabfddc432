import { OscBridgeClient, probeDelayMs, type BridgeClock, type BridgeSocket } from './oscBridgeClient';

/** A socket that nobody answers until the test says so. */
class FakeSocket {
  readyState = 0;
  binaryType: BinaryType = 'blob';
  sent: unknown[] = [];
  onopen: BridgeSocket['onopen'] = null;
  onmessage: BridgeSocket['onmessage'] = null;
  onclose: BridgeSocket['onclose'] = null;
  send(data: unknown) {
    this.sent.push(data);
  }
  close() {}
  refuse() {
    this.readyState = 3;
    this.onclose?.call(this as never, {} as CloseEvent);
  }
  answer(target = { host: '127.0.0.1', port: 7000 }) {
    this.readyState = 1;
    this.onopen?.call(this as never, {} as Event);
    this.onmessage?.call(this as never, { data: JSON.stringify({ type: 'status', state: 'ready', target, version: 1 }) } as MessageEvent);
  }
}

/** Timers on a clock the test moves by hand. */
class FakeClock implements BridgeClock {
  now = 0;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;
  setTimeout(callback: () => void, ms: number) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers.delete(handle as number);
  }
  get pending(): number[] {
    return [...this.timers.values()].map((timer) => timer.at - this.now);
  }
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = until;
  }
}

/** OSC output as this browser remembers it (on, unless a test says otherwise). */
function memoryPreference(on: boolean) {
  const stored = { on };
  return { stored, read: () => stored.on, write: (value: boolean) => void (stored.on = value) };
}

function setup(outputOn = true) {
  const sockets: FakeSocket[] = [];
  const clock = new FakeClock();
  const preference = memoryPreference(outputOn);
  const client = new OscBridgeClient(
    () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as BridgeSocket;
    },
    clock,
    preference,
  );
  /** Lets every look so far find nothing, and returns the wait before the next one. */
  const refuseLatest = () => {
    sockets.at(-1)!.refuse();
    return clock.pending;
  };
  return { sockets, clock, client, refuseLatest, preference };
}

describe('OSC output off (until the person turns it on)', () => {
  it('never looks for the bridge, watched or asked, so the browser reports nothing', () => {
    const { client, sockets, clock } = setup(false);
    expect(client.status.state).toBe('off');
    const stop = client.watch();
    client.lookAgain();
    client.setTarget({ host: '127.0.0.1', port: 9000 });
    clock.advance(10 * 60_000);
    expect(sockets).toHaveLength(0);
    expect(client.send('/x', [1])).toBe(false);
    stop();
  });

  it('turned on: looks at once while watched, is remembered, and sends the wanted target when found', () => {
    const { client, sockets, preference } = setup(false);
    client.setTarget({ host: '127.0.0.1', port: 9000 });
    const stop = client.watch();
    client.setEnabled(true);
    expect(preference.stored.on).toBe(true);
    expect(sockets).toHaveLength(1);
    sockets[0]!.answer();
    expect(sockets[0]!.sent).toEqual([JSON.stringify({ type: 'target', host: '127.0.0.1', port: 9000 })]);
    expect(client.status.state).toBe('connected');
    stop();
  });

  it('turned off: closes the connection, stops the back-off and forgets', () => {
    const { client, sockets, clock, refuseLatest, preference } = setup(true);
    const stop = client.watch();
    expect(refuseLatest()).toEqual([10_000]);
    client.setEnabled(false);
    expect(preference.stored.on).toBe(false);
    expect(client.status.state).toBe('off');
    expect(clock.pending).toEqual([]);
    clock.advance(5 * 60_000);
    expect(sockets).toHaveLength(1);
    // A connected bridge is let go.
    client.setEnabled(true);
    sockets[1]!.answer();
    const close = jest.spyOn(sockets[1]!, 'close');
    client.setEnabled(false);
    expect(close).toHaveBeenCalled();
    expect(client.send('/x', [1])).toBe(false);
    stop();
  });
});

describe('looking for the OSC bridge', () => {
  it('waits 10 s after the first miss, doubling to at most 2 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((failures) => probeDelayMs(failures) / 1000)).toEqual([10, 20, 40, 80, 120, 120, 120, 120]);
  });

  it('looks at once when watched, then on that schedule: 6 looks in the first 5 minutes (5–30 s waits made 12)', () => {
    const { sockets, clock, client, refuseLatest } = setup();
    const stop = client.watch();
    expect(sockets).toHaveLength(1);
    expect(client.status.state).toBe('connecting');
    const waits: number[] = [];
    for (;;) {
      const [wait] = refuseLatest();
      expect(client.status.state).toBe('not-running');
      waits.push(wait!);
      if (clock.now + wait! > 300_000) break;
      clock.advance(wait!);
    }
    expect(waits).toEqual([10_000, 20_000, 40_000, 80_000, 120_000, 120_000]);
    expect(sockets).toHaveLength(6);
    stop();
  });

  it('does not look while nobody watches, and stops looking when the last watcher leaves', () => {
    const { sockets, clock, client, refuseLatest } = setup();
    clock.advance(600_000);
    expect(sockets).toHaveLength(0);
    expect(client.send('/stemdeck/beat', [1])).toBe(false);

    const first = client.watch();
    const second = client.watch();
    expect(sockets).toHaveLength(1);
    expect(refuseLatest()).toEqual([10_000]);
    first();
    first(); // twice is harmless
    clock.advance(10_000);
    expect(sockets).toHaveLength(2); // the second watcher is still there
    refuseLatest();
    second();
    expect(clock.pending).toEqual([]);
    clock.advance(600_000);
    expect(sockets).toHaveLength(2);

    client.watch(); // back on screen: one look at once
    expect(sockets).toHaveLength(3);
  });

  it('looks again at once when asked, and starts the schedule afresh', () => {
    const { sockets, clock, client, refuseLatest } = setup();
    client.watch();
    refuseLatest();
    clock.advance(10_000);
    expect(refuseLatest()).toEqual([20_000]);
    client.lookAgain();
    expect(sockets).toHaveLength(3);
    expect(clock.pending).toEqual([]);
    client.lookAgain(); // already looking: no second socket
    expect(sockets).toHaveLength(3);
    expect(refuseLatest()).toEqual([10_000]);
  });

  it('connects when the bridge answers, sends the wanted target, and looks again from the start when it goes away', () => {
    const { sockets, clock, client } = setup();
    client.watch();
    client.setTarget({ host: '127.0.0.1', port: 9000 });
    sockets.at(-1)!.answer({ host: '127.0.0.1', port: 9000 });
    expect(client.status).toEqual({ state: 'connected', target: '127.0.0.1:9000', message: null });
    expect(sockets.at(-1)!.sent).toEqual([JSON.stringify({ type: 'target', host: '127.0.0.1', port: 9000 })]);
    expect(client.send('/stemdeck/pad/vocals', [127])).toBe(true);
    expect(clock.pending).toEqual([]);

    sockets.at(-1)!.refuse();
    expect(client.status).toEqual({ state: 'error', target: null, message: 'The OSC bridge closed the connection' });
    expect(clock.pending).toEqual([10_000]);
  });
});
