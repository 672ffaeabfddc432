import { Logger } from '@nestjs/common';
import { ExpiredSessionSweep, type ExpiredSessionStore } from './expired-session-sweep';

class FakeStore implements ExpiredSessionStore {
  readonly sweptAt: Date[] = [];
  failNext = false;
  hold?: Promise<void>;
  async deleteExpired(now = new Date()): Promise<number> {
    this.sweptAt.push(now);
    await this.hold;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection reset');
    }
    return 2;
  }
}

describe('ExpiredSessionSweep', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('sweeps once per configured interval from module init until destroy', async () => {
    const store = new FakeStore();
    const sweep = new ExpiredSessionSweep(store, { SESSION_SWEEP_INTERVAL_SECONDS: 2 });
    sweep.onModuleInit();
    await jest.advanceTimersByTimeAsync(1999);
    expect(store.sweptAt).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(6001);
    expect(store.sweptAt).toHaveLength(4);
    await sweep.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(store.sweptAt).toHaveLength(4);
  });

  it('logs a failed sweep and keeps sweeping', async () => {
    const store = new FakeStore();
    store.failNext = true;
    const sweep = new ExpiredSessionSweep(store, { SESSION_SWEEP_INTERVAL_SECONDS: 1 });
    sweep.onModuleInit();
    await jest.advanceTimersByTimeAsync(3000);
    expect(store.sweptAt).toHaveLength(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/sweep failed.*connection reset/);
    await sweep.onModuleDestroy();
  });

  it('does not start a second pass while one is still running, and destroy waits for it', async () => {
    const store = new FakeStore();
    let release!: () => void;
    store.hold = new Promise((resolve) => (release = resolve));
    const sweep = new ExpiredSessionSweep(store, { SESSION_SWEEP_INTERVAL_SECONDS: 1 });
    sweep.onModuleInit();
    await jest.advanceTimersByTimeAsync(5000);
    expect(store.sweptAt).toHaveLength(1);
    let destroyed = false;
    const destroying = sweep.onModuleDestroy().then(() => (destroyed = true));
    await Promise.resolve();
    expect(destroyed).toBe(false);
    release();
    await destroying;
    expect(destroyed).toBe(true);
  });

  it('does not keep the process alive', () => {
    const sweep = new ExpiredSessionSweep(new FakeStore(), { SESSION_SWEEP_INTERVAL_SECONDS: 600 });
    jest.useRealTimers();
    sweep.onModuleInit();
    const timer = (sweep as unknown as { timer: NodeJS.Timeout }).timer;
    expect(timer.hasRef()).toBe(false);
    void sweep.onModuleDestroy();
  });
});
