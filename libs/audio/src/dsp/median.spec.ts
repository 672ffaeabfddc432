import { remedianFilter, remedianSpan, type GridAxis } from './median';

/** Grid with `frames` rows of `bins` cells, filled by value(frame, bin). */
function grid(frames: number, bins: number, value: (frame: number, bin: number) => number): Float32Array {
  const out = new Float32Array(frames * bins);
  for (let f = 0; f < frames; f++) for (let b = 0; b < bins; b++) out[f * bins + b] = value(f, b);
  return out;
}

function filter(input: Float32Array, frames: number, bins: number, axis: GridAxis, stages: number[]): Float32Array {
  const output = new Float32Array(input.length);
  remedianFilter(input, output, new Float32Array(input.length), frames, bins, axis, stages);
  return output;
}

function exactMedian(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) / 2];
}

const pseudoRandom = (i: number) => Math.abs(Math.sin(i * 12.9898) * 43758.5453) % 1;

describe('remedianFilter', () => {
  it.each([3, 5])('one %i-tap stage is the exact running median, edges repeating the edge value', (taps) => {
    const frames = 40;
    const input = grid(frames, 3, (f, b) => pseudoRandom(f * 3 + b));
    const output = filter(input, frames, 3, 'frames', [taps]);
    const reach = (taps - 1) / 2;
    for (let f = 0; f < frames; f++) {
      for (let b = 0; b < 3; b++) {
        const window: number[] = [];
        for (let d = -reach; d <= reach; d++) window.push(input[Math.min(frames - 1, Math.max(0, f + d)) * 3 + b]);
        expect(output[f * 3 + b]).toBe(exactMedian(window));
      }
    }
  });

  it('filters along bins the same way it filters along frames', () => {
    const input = grid(30, 20, (f, b) => pseudoRandom(f * 20 + b));
    const transposed = grid(20, 30, (f, b) => input[b * 20 + f]);
    const alongBins = filter(input, 30, 20, 'bins', [3, 5]);
    const alongFrames = filter(transposed, 20, 30, 'frames', [3, 5]);
    for (let f = 0; f < 30; f++) for (let b = 0; b < 20; b++) expect(alongBins[f * 20 + b]).toBe(alongFrames[b * 30 + f]);
  });

  it('removes a burst shorter than half its span and keeps a lasting step', () => {
    const frames = 60;
    // A steady tone in bin 0, a 3-frame burst in bin 1, a step from 0 to 1 at frame 30 in bin 2.
    const input = grid(frames, 3, (f, b) => (b === 0 ? 1 : b === 1 ? (f >= 20 && f < 23 ? 1 : 0) : f >= 30 ? 1 : 0));
    const output = filter(input, frames, 3, 'frames', [3, 3]);
    for (let f = 0; f < frames; f++) {
      expect(output[f * 3]).toBe(1);
      expect(output[f * 3 + 1]).toBe(0);
      if (f < 26 || f >= 34) expect(output[f * 3 + 2]).toBe(f >= 30 ? 1 : 0);
    }
  });

  it('spans the product of its stages', () => {
    expect(remedianSpan([3, 3, 3])).toBe(27);
    expect(remedianSpan([5, 3])).toBe(15);
    expect(() => filter(new Float32Array(4), 2, 2, 'bins', [4])).toThrow();
  });
});
