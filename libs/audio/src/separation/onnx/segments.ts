/**
 * Fixed-length windows with overlap-add, as Demucs's apply_model does: the model only ever sees
 * windows of its own length, and overlapping outputs are cross-faded with a triangular weight.
 */

/** Window starts every (1 - overlap) * segmentLength samples, from 0 while inside the signal. */
export function segmentOffsets(signalLength: number, segmentLength: number, overlap: number): number[] {
  if (!(overlap >= 0 && overlap < 1)) throw new RangeError(`overlap must be in [0, 1), got ${overlap}`);
  if (!Number.isInteger(segmentLength) || segmentLength <= 0) {
    throw new RangeError(`segment length must be a positive integer, got ${segmentLength}`);
  }
  const stride = segmentStride(segmentLength, overlap);
  const offsets: number[] = [];
  for (let offset = 0; offset < signalLength; offset += stride) offsets.push(offset);
  return offsets;
}

/** Distance between window starts: (1 - overlap) * segmentLength, at least one sample. */
export function segmentStride(segmentLength: number, overlap: number): number {
  return Math.max(1, Math.floor((1 - overlap) * segmentLength));
}

/**
 * Demucs's window weight: 1, 2, ... up to the middle and back down, scaled to peak 1. It never
 * reaches 0, so samples covered by one window only (the signal's ends) keep their value.
 */
export function triangularWeight(length: number): Float32Array {
  const half = Math.floor(length / 2);
  const peak = Math.max(half, length - half);
  const weight = new Float32Array(length);
  for (let i = 0; i < half; i++) weight[i] = (i + 1) / peak;
  for (let i = half; i < length; i++) weight[i] = (length - i) / peak;
  return weight;
}

/** Planar rows [channel][segmentLength] starting at offset; zeros past the end of the signal. */
export function readSegment(channels: readonly Float32Array[], offset: number, segmentLength: number): Float32Array {
  const segment = new Float32Array(channels.length * segmentLength);
  channels.forEach((channel, row) => {
    segment.set(channel.subarray(offset, offset + segmentLength), row * segmentLength);
  });
  return segment;
}

/**
 * Sums weighted window outputs as they come, in window order, keeping only one window's length: once
 * the next window starts at `position`, nothing before it changes any more and `take` hands it out,
 * normalised by the summed weight so the joins are seamless.
 */
export class OverlapAdd {
  private readonly rows: Float32Array[];
  private readonly weightSum: Float32Array;
  private readonly weight: Float32Array;
  /** Signal position of rows[*][0]. */
  private origin = 0;

  constructor(
    channels: number,
    private readonly segmentLength: number,
  ) {
    this.rows = Array.from({ length: channels }, () => new Float32Array(segmentLength));
    this.weightSum = new Float32Array(segmentLength);
    this.weight = triangularWeight(segmentLength);
  }

  /**
   * Adds one window's output at `offset` (call `take(offset)` first); `segment` holds planar rows
   * [channel][segmentLength], of which only the first `valid` samples count (the rest lies past the end).
   */
  add(offset: number, segment: Float32Array, valid = this.segmentLength): void {
    if (offset !== this.origin) throw new RangeError(`window at ${offset} added while the sum starts at ${this.origin}; take(${offset}) first`);
    const { segmentLength, weight, weightSum } = this;
    for (let i = 0; i < valid; i++) weightSum[i] += weight[i];
    this.rows.forEach((row, channel) => {
      const start = channel * segmentLength;
      for (let i = 0; i < valid; i++) row[i] += weight[i] * segment[start + i];
    });
  }

  /** Samples of storage (every row and the weight sum): one window's length each, always. */
  get held(): number {
    return (this.rows.length + 1) * this.segmentLength;
  }

  /** The finished rows up to `position` (no later window may start before it), normalised; they are forgotten here. */
  take(position: number): Float32Array[] {
    const count = position - this.origin;
    if (!(count >= 0 && count <= this.segmentLength)) throw new RangeError(`cannot take up to ${position} from a sum starting at ${this.origin}`);
    const { weightSum } = this;
    const finished = this.rows.map((row) => {
      const part = row.slice(0, count);
      for (let i = 0; i < count; i++) part[i] /= weightSum[i];
      row.copyWithin(0, count);
      row.fill(0, this.segmentLength - count);
      return part;
    });
    weightSum.copyWithin(0, count);
    weightSum.fill(0, this.segmentLength - count);
    this.origin = position;
    return finished;
  }
}
