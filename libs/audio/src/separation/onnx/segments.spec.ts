import { OverlapAdd, readSegment, segmentOffsets, triangularWeight } from './segments';

describe('segmentOffsets', () => {
  it('steps by (1 - overlap) * length from 0 while inside the signal, as Demucs does', () => {
    expect(segmentOffsets(10, 4, 0.25)).toEqual([0, 3, 6, 9]);
    expect(segmentOffsets(8, 4, 0)).toEqual([0, 4]);
    expect(segmentOffsets(3, 4, 0.25)).toEqual([0]);
    expect(segmentOffsets(0, 4, 0.25)).toEqual([]);
  });

  it('rejects overlaps outside [0, 1) and non-integer lengths', () => {
    expect(() => segmentOffsets(10, 4, 1)).toThrow(RangeError);
    expect(() => segmentOffsets(10, 4, -0.1)).toThrow(RangeError);
    expect(() => segmentOffsets(10, 4.5, 0.25)).toThrow(RangeError);
  });
});

describe('triangularWeight', () => {
  it("matches Demucs's ramp for even and odd lengths: peak 1, never 0", () => {
    expect(Array.from(triangularWeight(6))).toEqual([1, 2, 3, 3, 2, 1].map((w) => Math.fround(w / 3)));
    expect(Array.from(triangularWeight(5))).toEqual([1, 2, 3, 2, 1].map((w) => Math.fround(w / 3)));
  });
});

describe('readSegment', () => {
  it('cuts planar rows and zero-pads past the end', () => {
    const left = Float32Array.from([1, 2, 3, 4, 5]);
    const right = Float32Array.from([6, 7, 8, 9, 10]);
    expect(Array.from(readSegment([left, right], 3, 4))).toEqual([4, 5, 0, 0, 9, 10, 0, 0]);
  });
});

/** Runs `model` over every window of `signal` through OverlapAdd, taking finished samples as it goes. */
function overlapAddAll(signal: Float32Array, segmentLength: number, overlap: number, model: (window: Float32Array, offset: number) => Float32Array): Float32Array {
  const overlapAdd = new OverlapAdd(1, segmentLength);
  const parts: Float32Array[] = [];
  for (const offset of segmentOffsets(signal.length, segmentLength, overlap)) {
    parts.push(overlapAdd.take(offset)[0]);
    overlapAdd.add(offset, model(readSegment([signal], offset, segmentLength), offset), Math.min(segmentLength, signal.length - offset));
  }
  parts.push(overlapAdd.take(signal.length)[0]);
  const result = new Float32Array(signal.length);
  let at = 0;
  for (const part of parts) (result.set(part, at), (at += part.length));
  expect(at).toBe(signal.length);
  return result;
}

describe('OverlapAdd', () => {
  it('gives back exactly what an identity model returns, joins and tail included, holding one window', () => {
    const signal = Float32Array.from({ length: 103 }, (_, i) => Math.sin(i / 3));
    const result = overlapAddAll(signal, 16, 0.25, (window) => window);
    result.forEach((value, i) => expect(value).toBeCloseTo(signal[i], 6));
  });

  it('cross-fades linearly where two windows disagree', () => {
    // Window 0 says 0 everywhere, window 1 says 1: across their overlap the result ramps between them.
    const result = overlapAddAll(new Float32Array(12), 8, 0.5, (_window, offset) => new Float32Array(8).fill(offset === 0 ? 0 : 1));
    expect(Array.from(result.subarray(4, 8)).map((v) => +v.toFixed(4))).toEqual([0.2, 0.4, 0.6, 0.8]);
    expect(result[3]).toBe(0);
    expect(result[8]).toBe(1);
  });

  it('refuses a window before taking up to its start, and a take past one window', () => {
    const overlapAdd = new OverlapAdd(1, 8);
    overlapAdd.add(0, new Float32Array(8));
    expect(() => overlapAdd.add(4, new Float32Array(8))).toThrow(RangeError);
    expect(() => overlapAdd.take(9)).toThrow(RangeError);
  });
});
