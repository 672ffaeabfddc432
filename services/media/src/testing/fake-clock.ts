import type { Clock, IdGenerator } from '@stemdeck/platform';

/** A clock that moves only when told to, or by `stepMs` on every reading (so throttles and timings are deterministic). */
export class FakeClock implements Clock {
  constructor(
    private time = 0,
    private readonly stepMs = 0,
  ) {}

  now(): number {
    const time = this.time;
    this.time += this.stepMs;
    return time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

/** Ids `<prefix>-1`, `<prefix>-2`, … in the order they are asked for. */
export class SequentialIds implements IdGenerator {
  private issued = 0;

  constructor(private readonly prefix = 'id') {}

  randomUUID(): string {
    return `${this.prefix}-${++this.issued}`;
  }
}
