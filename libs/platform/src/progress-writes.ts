import { systemClock, type Clock } from './clock';

/** A job's stored progress: written at most every interval, one write at a time, never backwards, never the end. */
export interface ThrottledProgress {
  /** How far the work is (0–1); written if a write is due (see throttledProgress), else dropped. */
  report(fraction: number): void;
  /**
   * Resolves once no write is on its way (never rejects). A job's end written after it is never overwritten by
   * a late progress write.
   */
  settled(): Promise<void>;
}

export interface ThrottledProgressOptions {
  /** The least time from one write's start to the next's; the first write waits this long from the start too. */
  intervalMs: number;
  /**
   * How finely progress is stored: a fraction becomes a whole number of steps (100: percent), rounded down. The
   * last step is never written here: reaching it is the job's end, which the job's own write stores.
   */
  steps: number;
  /** Stores `step` (0 < step < steps) and does what the service does after it (events, noticing a cancel). */
  write: (step: number) => Promise<void>;
  /** A write that failed (the service logs it); later writes go on. Ignored when absent. */
  failed?: (error: Error) => void;
  clock?: Clock;
}

/**
 * Progress writes for a long job. A report while a write is on its way is dropped rather than queued (a slow
 * database gets fewer writes, never two racing), as is one that would not raise the stored step or comes within
 * the interval of the last write's start.
 */
export function throttledProgress({ intervalMs, steps, write, failed, clock = systemClock }: ThrottledProgressOptions): ThrottledProgress {
  let lastWriteAt = clock.now();
  let written = 0;
  let writing: Promise<void> | null = null;
  const report = (fraction: number): void => {
    const step = Math.min(steps - 1, Math.floor(fraction * steps));
    const now = clock.now();
    // `!(step > written)` also drops a NaN.
    if (writing !== null || !(step > written) || now - lastWriteAt < intervalMs) return;
    lastWriteAt = now;
    written = step;
    // The executor runs `write` at once, and turns a synchronous throw into a rejection.
    writing = new Promise<void>((resolve) => resolve(write(step)))
      .catch((error: Error) => failed?.(error))
      .finally(() => (writing = null));
  };
  const settled = async (): Promise<void> => {
    while (writing !== null) await writing;
  };
  return { report, settled };
}
