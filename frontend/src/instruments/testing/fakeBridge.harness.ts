/**
 * A stand-in for the OSC bridge's WebSocket and a hand-moved clock, for the unit tests of the bridge client,
 * the control outputs and the sync panel (not part of the app).
 */
import OSC from 'osc-js';
import { OscBridgeClient, type BridgeClock, type BridgeRoute, type BridgeSocket } from '../oscBridgeClient';

/** A socket that nobody answers until the test says so. */
export class FakeSocket {
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
  /** Opens and greets as a bridge of protocol 1 (no route) or 2 (with the route). */
  answer(target = { host: '127.0.0.1', port: 7000 }, route?: BridgeRoute) {
    this.readyState = 1;
    this.onopen?.call(this as never, {} as Event);
    this.status(target, route);
  }
  status(target: { host: string; port: number }, route?: BridgeRoute) {
    this.frame(route ? { type: 'status', state: 'ready', route, target, version: 2 } : { type: 'status', state: 'ready', target, version: 1 });
  }
  frame(frame: unknown) {
    this.onmessage?.call(this as never, { data: JSON.stringify(frame) } as MessageEvent);
  }
  /** The OSC messages sent, decoded with their type tags. */
  get oscSent(): Array<{ address: string; types: string; args: unknown[] }> {
    return this.sent
      .filter((data): data is Uint8Array => data instanceof Uint8Array)
      .map((bytes) => {
        const message = new OSC.Message('/');
        message.unpack(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        return { address: message.address, types: message.types, args: message.args };
      });
  }
}

/** Timers on a clock the test moves by hand. */
export class FakeClock implements BridgeClock {
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

/** An on/off as this browser would remember it, in memory. */
export function memoryPreference(on: boolean) {
  const stored = { on };
  return { stored, read: () => stored.on, write: (value: boolean) => void (stored.on = value) };
}

/** A bridge client on `route` whose sockets are fakes (each one it opens is pushed to `sockets`). */
export function fakeBridgeClient(route: BridgeRoute = 'default', outputOn = true) {
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
    route,
  );
  return { sockets, clock, client, preference };
}
