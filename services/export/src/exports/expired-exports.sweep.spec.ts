import { ExpiredExportsSweep } from './expired-exports.sweep';
import type { PurgeExpiredExportsUseCase } from './purge-expired-exports.usecase';

/** A purge whose passes the spec finishes by hand, counting them. */
class ControlledPurge {
  passes = 0;
  failNext = false;
  private finish?: () => void;

  execute(): Promise<number> {
    this.passes += 1;
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('database unreachable'));
    }
    return new Promise((resolve) => (this.finish = () => resolve(1)));
  }

  finishPass(): void {
    this.finish?.();
    this.finish = undefined;
  }
}

describe('ExpiredExportsSweep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs a pass every interval, never two at once, and goes on after a failed pass (many cycles)', async () => {
    const purge = new ControlledPurge();
    const sweep = new ExpiredExportsSweep(purge as unknown as PurgeExpiredExportsUseCase, { EXPORT_SWEEP_INTERVAL_MS: 1000 });
    sweep.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(999);
    expect(purge.passes).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(purge.passes).toBe(1);
    // A slow pass: the ticks meanwhile start none.
    await jest.advanceTimersByTimeAsync(3000);
    expect(purge.passes).toBe(1);
    purge.finishPass();
    await jest.advanceTimersByTimeAsync(1000);
    expect(purge.passes).toBe(2);
    purge.finishPass();
    purge.failNext = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(purge.passes).toBe(3);
    for (let cycle = 0; cycle < 50; cycle += 1) {
      await jest.advanceTimersByTimeAsync(1000);
      purge.finishPass();
    }
    expect(purge.passes).toBe(53);
    await jest.advanceTimersByTimeAsync(1000);
    const stopping = sweep.onApplicationShutdown();
    purge.finishPass();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(purge.passes).toBe(54);
  });
});
