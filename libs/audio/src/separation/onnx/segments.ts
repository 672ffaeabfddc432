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
  const stride = Math.max(1, Math.floor((1 - overlap) * segmentLength));
  const offsets: number[] = [];
  for (let offset = 0; offset < signalLength; offset += stride) offsets.push(offset);
  return offsets;
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

/** Sums weighted window outputs; `result` normalises by the summed weight so the joins are seamless. */
export class OverlapAdd {
  private readonly rows: Float32Array[];
  private readonly weightSum: Float32Array;
  private readonly weight: Float32Array;

  constructor(
    channels: number,
    private readonly signalLength: number,
    private readonly segmentLength: number,
  ) {
    this.rows = Array.from({ length: channels }, () => new Float32Array(signalLength));
    this.weightSum = new Float32Array(signalLength);
    this.weight = triangularWeight(segmentLength);
  }

  /** `segment` holds planar rows [channel][segmentLength]; the part past the signal's end is dropped. */
  add(offset: number, segment: Float32Array): void {
    const { segmentLength, weight } = this;
    const valid = Math.min(segmentLength, this.signalLength - offset);
    for (let i = 0; i < valid; i++) this.weightSum[offset + i] += weight[i];
    this.rows.forEach((row, channel) => {
      const start = channel * segmentLength;
      for (let i = 0; i < valid; i++) row[offset + i] += weight[i] * segment[start + i];
    });
  }

  /** The recombined rows (normalised in place: call once, after every window was added). */
  result(): Float32Array[] {
    for (const row of this.rows) {
      for (let i = 0; i < row.length; i++) row[i] /= this.weightSum[i];
    }
    return this.rows;
  }
}
