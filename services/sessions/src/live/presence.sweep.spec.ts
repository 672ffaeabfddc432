import { PRESENCE_SWEEP_INTERVAL_MS, PresenceSweep } from './presence.sweep';
import type { PresenceTracker, SweepOutcome } from './presence-tracker';

/** The tracker's side the timer drives, counting calls; a pass can be held open or made to fail. */
class CountingTracker {
  rebuilds = 0;
  sweeps = 0;
  failNext = false;
  hold?: Promise<void>;

  async rebuild(): Promise<void> {
    this.rebuilds += 1;
  }

  async sweep(): Promise<SweepOutcome> {
    this.sweeps += 1;
    await this.hold;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('bucket unreachable');
    }
    return { wentOffline: 0, cameOnline: 0 };
  }
}

describe('PresenceSweep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('reads the bucket at boot, then sweeps every interval, goes on after a failed pass, and stops at shutdown', async () => {
    const tracker = new CountingTracker();
    const sweep = new PresenceSweep(tracker as unknown as PresenceTracker);
    await sweep.onApplicationBootstrap();
    expect(tracker.rebuilds).toBe(1);
    expect(tracker.sweeps).toBe(0);

    tracker.failNext = true;
    await jest.advanceTimersByTimeAsync(PRESENCE_SWEEP_INTERVAL_MS);
    expect(tracker.sweeps).toBe(1);
    await jest.advanceTimersByTimeAsync(PRESENCE_SWEEP_INTERVAL_MS * 10);
    expect(tracker.sweeps).toBe(11);

    await sweep.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(PRESENCE_SWEEP_INTERVAL_MS * 10);
    expect(tracker.sweeps).toBe(11);
  });

  it('runs one pass at a time: ticks during a slow pass are skipped', async () => {
    const tracker = new CountingTracker();
    let release!: () => void;
    tracker.hold = new Promise((resolve) => (release = resolve));
    const sweep = new PresenceSweep(tracker as unknown as PresenceTracker);
    await sweep.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(PRESENCE_SWEEP_INTERVAL_MS * 5);
    expect(tracker.sweeps).toBe(1);
    release();
    tracker.hold = undefined;
    await jest.advanceTimersByTimeAsync(PRESENCE_SWEEP_INTERVAL_MS);
    expect(tracker.sweeps).toBe(2);
    await sweep.onApplicationShutdown();
  });

  it('does not keep the process alive (the timer is unref\'d)', async () => {
    jest.useRealTimers();
    const sweep = new PresenceSweep(new CountingTracker() as unknown as PresenceTracker);
    await sweep.onApplicationBootstrap();
    expect((sweep as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(false);
    await sweep.onApplicationShutdown();
  });
});
