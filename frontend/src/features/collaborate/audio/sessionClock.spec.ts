import { SessionClock, type ClockPing } from './sessionClock';

const TIME_ORIGIN = 1_760_000_000_000;

/**
 * A simulated browser and server: the browser's performance clock is moved by hand; the server's clock reads
 * the browser's wall clock plus `serverAheadMs`; each ping takes `up` ms to reach the server and its pong
 * `down` ms to come back (asymmetric when they differ).
 */
function world(serverAheadMs: number) {
  let perfNow = 5_000;
  const timers: Array<{ at: number; run: () => void; id: number }> = [];
  let timerIds = 0;
  const delays: Array<{ up: number; down: number }> = [];
  const sent: ClockPing[] = [];
  const clock = new SessionClock(
    (ping) => {
      sent.push(ping);
      const { up, down } = delays.shift() ?? { up: 2, down: 2 };
      const serverTime = TIME_ORIGIN + perfNow + up + serverAheadMs;
      later(up + down, () => clock.onPong({ id: ping.id, serverTime }, perfNow));
      return true;
    },
    {
      now: () => perfNow,
      timeOrigin: TIME_ORIGIN,
      setTimer: (run, ms) => later(ms, run),
      clearTimer: (id) => {
        const index = timers.findIndex((timer) => timer.id === id);
        if (index >= 0) timers.splice(index, 1);
      },
    },
  );
  function later(ms: number, run: () => void): number {
    timers.push({ at: perfNow + ms, run, id: ++timerIds });
    return timerIds;
  }
  /** Moves the browser's clock on by `ms`, running what falls due in order. */
  function advance(ms: number): void {
    const end = perfNow + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > end) break;
      timers.shift();
      perfNow = next.at;
      next.run();
    }
    perfNow = end;
  }
  return { clock, delays, sent, advance, perfNow: () => perfNow, wallNow: () => TIME_ORIGIN + perfNow };
}

describe('SessionClock', () => {
  it('reads the local clock until the first pong, then the server clock', () => {
    const { clock, advance, wallNow } = world(1234);
    expect(clock.synced).toBe(false);
    expect(clock.serverNow()).toBe(wallNow());
    expect(clock.rttMs).toBeNull();
    clock.ping();
    advance(10);
    expect(clock.synced).toBe(true);
    expect(clock.serverNow() - wallNow()).toBeCloseTo(1234, 6);
    expect(clock.rttMs).toBe(4);
  });

  it.each([
    { serverAheadMs: 250, up: 30, down: 5 },
    { serverAheadMs: -4_000, up: 3, down: 40 },
    { serverAheadMs: 0, up: 80, down: 1 },
  ])('with delays up $up ms / down $down ms the offset $serverAheadMs ms is found within half the round trip', ({ serverAheadMs, up, down }) => {
    const { clock, delays, advance } = world(serverAheadMs);
    delays.push({ up, down });
    clock.ping();
    advance(up + down);
    expect(clock.rttMs).toBe(up + down);
    const error = clock.offsetMs - serverAheadMs;
    expect(Math.abs(error)).toBeLessThanOrEqual(clock.rttMs! / 2);
    // The midpoint assumption is off by exactly half the asymmetry.
    expect(error).toBeCloseTo((up - down) / 2, 6);
  });

  it('keeps the sample with the smallest round trip of the last 8, and lets it go once older', () => {
    const { clock, delays, advance } = world(100);
    // A quick, symmetric round trip first, then slow, lopsided ones.
    delays.push({ up: 1, down: 1 }, { up: 40, down: 2 }, ...Array.from({ length: 6 }, () => ({ up: 30, down: 3 })));
    for (let i = 0; i < 8; i++) {
      clock.ping();
      advance(100);
    }
    expect(clock.rttMs).toBe(2);
    expect(clock.offsetMs).toBeCloseTo(100, 6);
    // One more slow sample pushes the quick one out of the window: the best of what is left is slower.
    delays.push({ up: 20, down: 10 });
    clock.ping();
    advance(100);
    expect(clock.rttMs).toBe(30);
    expect(clock.offsetMs).toBeCloseTo(105, 6);
  });

  it('maps server times to this page\'s clock and back', () => {
    const { clock, advance, perfNow } = world(-750);
    clock.ping();
    advance(10);
    const serverTime = clock.serverTimeAt(perfNow() + 400);
    expect(clock.perfTimeOf(serverTime)).toBeCloseTo(perfNow() + 400, 6);
    expect(serverTime - (TIME_ORIGIN + perfNow() + 400)).toBeCloseTo(-750, 6);
  });

  it('starts with a burst of 5 pings, then one every few seconds until stopped', () => {
    const { clock, sent, advance } = world(0);
    const changes = jest.fn();
    clock.onChange(changes);
    clock.start();
    advance(1_000);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((ping) => ping.id)).size).toBe(5);
    advance(4_000);
    expect(sent).toHaveLength(6);
    advance(8_000);
    expect(sent).toHaveLength(8);
    clock.stop();
    advance(20_000);
    expect(sent).toHaveLength(8);
    expect(changes).toHaveBeenCalled();
  });

  it('ignores pongs it did not ask for, answered twice, or for a ping that could not be sent', () => {
    let perfNow = 0;
    let open = false;
    const clock = new SessionClock(() => open, { now: () => perfNow, timeOrigin: TIME_ORIGIN });
    clock.onPong({ id: 'clock-1', serverTime: TIME_ORIGIN + 99_999 }, 1);
    clock.ping(); // not sent: the socket is closed
    clock.onPong({ id: 'clock-1', serverTime: TIME_ORIGIN + 99_999 }, 1);
    clock.onPong({ id: null, serverTime: TIME_ORIGIN + 99_999 }, 1);
    clock.onPong({ id: 7, serverTime: TIME_ORIGIN + 99_999 }, 1);
    expect(clock.synced).toBe(false);
    open = true;
    clock.ping();
    perfNow = 10;
    clock.onPong({ id: 'clock-2', serverTime: TIME_ORIGIN + 5 + 500 }, perfNow);
    expect(clock.offsetMs).toBe(500);
    clock.onPong({ id: 'clock-2', serverTime: TIME_ORIGIN + 5 + 9_000 }, perfNow);
    expect(clock.offsetMs).toBe(500);
  });
});
