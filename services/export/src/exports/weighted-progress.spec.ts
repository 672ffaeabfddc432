import { weightedProgress } from './weighted-progress';

describe('weightedProgress', () => {
  it('reports the weighted sum of the parts, whichever order they move in, never backwards', () => {
    const seen: number[] = [];
    const part = weightedProgress([1, 3], (fraction) => seen.push(fraction));
    part(1)(0.5);
    part(0)(1);
    part(1)(0.25);
    part(1)(Number.NaN);
    part(1)(2);
    expect(seen).toEqual([0.375, 0.625, 1]);
  });

  it('treats zero weights as nothing to wait for', () => {
    const seen: number[] = [];
    weightedProgress([0, 0], (fraction) => seen.push(fraction))(0)(1);
    expect(seen).toEqual([]);
  });
});
