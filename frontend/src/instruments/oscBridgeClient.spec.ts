import { OLD_BRIDGE_MESSAGE, probeDelayMs } from './oscBridgeClient';
import { fakeBridgeClient } from './testing/fakeBridge.harness';

function setup(outputOn = true, route: 'default' | 'resolume' = 'default') {
  const bridge = fakeBridgeClient(route, outputOn);
  /** Lets every look so far find nothing, and returns the wait before the next one. */
  const refuseLatest = () => {
    bridge.sockets.at(-1)!.refuse();
    return bridge.clock.pending;
  };
  return { ...bridge, refuseLatest };
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
    sockets[0]!.status({ host: '127.0.0.1', port: 9000 });
    expect(client.status).toEqual({ state: 'connected', target: '127.0.0.1:9000', message: null });
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
    sockets.at(-1)!.answer({ host: '127.0.0.1', port: 7000 });
    expect(sockets.at(-1)!.sent).toEqual([JSON.stringify({ type: 'target', host: '127.0.0.1', port: 9000 })]);
    // Not connected (nothing sent) until the bridge has taken the target: nothing may reach the old one.
    expect(client.status.state).toBe('connecting');
    expect(client.send('/stemdeck/pad/vocals', [127])).toBe(false);
    sockets.at(-1)!.status({ host: '127.0.0.1', port: 9000 });
    expect(client.status).toEqual({ state: 'connected', target: '127.0.0.1:9000', message: null });
    expect(client.send('/stemdeck/pad/vocals', [127])).toBe(true);
    expect(clock.pending).toEqual([]);

    sockets.at(-1)!.refuse();
    expect(client.status).toEqual({ state: 'error', target: null, message: 'The OSC bridge closed the connection' });
    expect(clock.pending).toEqual([10_000]);
  });
});

describe('OSC packets', () => {
  it('tags whole numbers int32, others float32, strings as strings, and tagged arguments as tagged', () => {
    const { client, sockets } = setup();
    client.watch();
    sockets[0]!.answer();
    client.send('/stemdeck/beat', [4, 120]);
    client.send('/stemdeck/transport', ['play', 1.5]);
    client.send('/composition/tempocontroller/tempo', [{ type: 'f', value: 0 }]);
    client.send('/composition/tempocontroller/resync', [{ type: 'i', value: 1 }]);
    const decoded = sockets[0]!.oscSent;
    expect(decoded.map(({ address, types }) => [address, types])).toEqual([
      ['/stemdeck/beat', ',ii'],
      ['/stemdeck/transport', ',sf'],
      ['/composition/tempocontroller/tempo', ',f'],
      ['/composition/tempocontroller/resync', ',i'],
    ]);
    expect(decoded[1]!.args).toEqual(['play', 1.5]);
  });
});

describe('a route of the bridge (Resolume\'s)', () => {
  it('connects when a bridge of protocol 2 greets it on its route, and sends its target first', () => {
    const { client, sockets } = setup(true, 'resolume');
    client.setTarget({ host: '127.0.0.1', port: 7001 });
    client.watch();
    sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }, 'resolume');
    expect(sockets[0]!.sent).toEqual([JSON.stringify({ type: 'target', host: '127.0.0.1', port: 7001 })]);
    expect(client.send('/composition/tempocontroller/resync', [1])).toBe(false);
    sockets[0]!.status({ host: '127.0.0.1', port: 7001 }, 'resolume');
    expect(client.status).toEqual({ state: 'connected', target: '127.0.0.1:7001', message: null });
    expect(client.send('/composition/tempocontroller/resync', [1])).toBe(true);
  });

  it('says a bridge of protocol 1 (one target for all) is too old, sends it nothing, and looks again later', () => {
    const { client, sockets, clock } = setup(true, 'resolume');
    client.setTarget({ host: '127.0.0.1', port: 7001 });
    client.watch();
    const close = jest.spyOn(sockets[0]!, 'close');
    sockets[0]!.answer({ host: '127.0.0.1', port: 7000 });
    expect(client.status).toEqual({ state: 'error', target: null, message: OLD_BRIDGE_MESSAGE });
    expect(close).toHaveBeenCalled();
    // Not even the target: it would have moved everyone's.
    expect(sockets[0]!.sent).toEqual([]);
    expect(client.send('/composition/tempocontroller/resync', [1])).toBe(false);
    expect(clock.pending).toEqual([10_000]);
    sockets[0]!.refuse(); // the close arriving later changes nothing
    expect(client.status.message).toBe(OLD_BRIDGE_MESSAGE);
    clock.advance(10_000);
    expect(sockets).toHaveLength(2);
  });

  it('a target the bridge refuses is an error and sends nothing; a good one then connects', () => {
    const { client, sockets } = setup(true, 'resolume');
    client.setTarget({ host: 'bad_host', port: 7001 });
    client.watch();
    sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }, 'resolume');
    sockets[0]!.frame({ type: 'error', message: 'Invalid target: host must be an IPv4 address or a hostname (got "bad_host")' });
    expect(client.status).toMatchObject({ state: 'error', message: expect.stringContaining('bad_host') });
    expect(client.send('/composition/tempocontroller/resync', [1])).toBe(false);
    client.setTarget({ host: '127.0.0.1', port: 7002 });
    expect(sockets[0]!.sent.at(-1)).toBe(JSON.stringify({ type: 'target', host: '127.0.0.1', port: 7002 }));
    sockets[0]!.status({ host: '127.0.0.1', port: 7002 }, 'resolume');
    expect(client.status).toEqual({ state: 'connected', target: '127.0.0.1:7002', message: null });
  });

  it('the default route takes a protocol 2 greeting for its route and refuses one for another', () => {
    const ok = setup(true);
    ok.client.watch();
    ok.sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }, 'default');
    expect(ok.client.status.state).toBe('connected');
    const wrong = setup(true);
    wrong.client.watch();
    wrong.sockets[0]!.answer({ host: '127.0.0.1', port: 7000 }, 'resolume');
    expect(wrong.client.status.state).toBe('error');
  });
});
