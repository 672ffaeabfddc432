import type { Clock } from './clock';
import { throttledProgress, type ThrottledProgressOptions } from './progress-writes';

const INTERVAL_MS = 1000;

/** The helper with a clock the test moves, recording each write; a write lands when the test says so. */
function setUp(options: Partial<ThrottledProgressOptions> = {}) {
  let time = 0;
  const clock: Clock = { now: () => time };
  const started: number[] = [];
  const landing: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const progress = throttledProgress({
    intervalMs: INTERVAL_MS,
    steps: 100,
    clock,
    write: (step) =>
      new Promise<void>((resolve, reject) => {
        started.push(step);
        landing.push({ resolve, reject });
      }),
    ...options,
  });
  /** Moves the clock on by a whole interval and reports `fraction`. */
  const reportLater = (fraction: number) => {
    time += INTERVAL_MS;
    progress.report(fraction);
  };
  /** Lets every write started so far land, and the helper see it. */
  const land = async () => {
    for (const write of landing.splice(0)) write.resolve();
    await progress.settled();
  };
  return { progress, started, landing, reportLater, land, moveClock: (ms: number) => (time += ms) };
}

describe('throttledProgress', () => {
  it('writes the fraction as whole steps, at most once per interval from the last write (and from the start)', async () => {
    const { progress, started, land, moveClock } = setUp();
    moveClock(INTERVAL_MS - 1);
    progress.report(0.1);
    expect(started).toEqual([]);
    moveClock(1);
    progress.report(0.1);
    expect(started).toEqual([10]);
    await land();
    moveClock(INTERVAL_MS - 1);
    progress.report(0.2);
    expect(started).toEqual([10]);
    moveClock(1);
    progress.report(0.257);
    expect(started).toEqual([10, 25]);
  });

  it('keeps one write on its way at a time, dropping reports meanwhile rather than queueing them', async () => {
    const { started, reportLater, land } = setUp();
    reportLater(0.1);
    reportLater(0.2);
    reportLater(0.3);
    expect(started).toEqual([10]);
    await land();
    expect(started).toEqual([10]);
    reportLater(0.4);
    expect(started).toEqual([10, 40]);
  });

  it('never writes a step at or below the last one written', async () => {
    const { started, reportLater, land } = setUp();
    reportLater(0.5);
    await land();
    reportLater(0.4);
    reportLater(0.5);
    reportLater(Number.NaN);
    expect(started).toEqual([50]);
    reportLater(0.6);
    expect(started).toEqual([50, 60]);
  });

  it('never writes the last step: the end is the job’s own write', async () => {
    const { started, reportLater, land } = setUp({ steps: 1000 });
    reportLater(1);
    await land();
    reportLater(1.5);
    expect(started).toEqual([999]);
  });

  it('settled() waits for the write on its way, and answers at once when none is', async () => {
    const { progress, landing, reportLater } = setUp();
    await progress.settled();
    reportLater(0.1);
    let settled = false;
    const waiting = progress.settled().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    landing[0]!.resolve();
    await waiting;
    expect(settled).toBe(true);
  });

  it('hands a failed write to `failed` and goes on writing; settled() does not reject', async () => {
    const failures: string[] = [];
    const { progress, started, landing, reportLater } = setUp({ failed: (error) => failures.push(error.message) });
    reportLater(0.1);
    landing[0]!.reject(new Error('database unavailable'));
    await expect(progress.settled()).resolves.toBeUndefined();
    expect(failures).toEqual(['database unavailable']);
    reportLater(0.2);
    expect(started).toEqual([10, 20]);
  });

  it('treats a write that throws at once like one that rejects', async () => {
    const failures: string[] = [];
    const written: number[] = [];
    let time = 0;
    const progress = throttledProgress({
      intervalMs: INTERVAL_MS,
      steps: 100,
      clock: { now: () => (time += INTERVAL_MS) },
      write: (step) => {
        written.push(step);
        if (step === 10) throw new Error('not connected');
        return Promise.resolve();
      },
      failed: (error) => failures.push(error.message),
    });
    progress.report(0.1);
    await progress.settled();
    progress.report(0.2);
    await progress.settled();
    expect(failures).toEqual(['not connected']);
    expect(written).toEqual([10, 20]);
  });
});
