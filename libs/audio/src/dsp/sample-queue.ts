/**
 * One channel's samples as they arrive, kept from some position onwards: appended at the end, dropped
 * from the front once nothing reads them. Positions count from the first sample ever appended.
 */
export class SampleQueue {
  private samples = new Float32Array(0);
  private length = 0;
  /** Position of buffer[0]. */
  private first = 0;

  /** Storage held, in samples. */
  get held(): number {
    return this.samples.length;
  }

  /** Position of the oldest sample kept. */
  get start(): number {
    return this.first;
  }

  /** Position just past the last sample received. */
  get end(): number {
    return this.first + this.length;
  }

  /** The backing array: sample at position p is buffer[p - start] (valid until the next append). */
  get buffer(): Float32Array {
    return this.samples;
  }

  append(samples: Float32Array): void {
    if (this.length + samples.length > this.samples.length) {
      const grown = new Float32Array(Math.max(this.length + samples.length, 2 * this.samples.length));
      grown.set(this.samples.subarray(0, this.length));
      this.samples = grown;
    }
    this.samples.set(samples, this.length);
    this.length += samples.length;
  }

  /** Fills `into` from `position` on; zeros past what was received. */
  read(position: number, into: Float32Array): void {
    const from = position - this.first;
    into.set(this.samples.subarray(from, Math.min(this.length, from + into.length)));
  }

  /** Forgets every sample before `position`. */
  dropBefore(position: number): void {
    const drop = Math.min(this.length, position - this.first);
    if (drop <= 0) return;
    this.samples.copyWithin(0, drop, this.length);
    this.length -= drop;
    this.first += drop;
  }
}
