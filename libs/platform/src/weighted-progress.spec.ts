import { weightedProgress } from './weighted-progress';

/** The totals reported while the parts report `reports` ([part, fraction within it], in order). */
function totals(weights: number[], reports: Array<[number, number]>): number[] {
  const seen: number[] = [];
  const part = weightedProgress(weights, (fraction) => seen.push(fraction));
  for (const [index, fraction] of reports) part(index)(fraction);
  return seen;
}

describe('weightedProgress', () => {
  it('reports the weighted sum of the parts, whichever order they move in, never backwards', () => {
    expect(totals([1, 3], [[1, 0.5], [0, 1], [1, 0.25], [1, Number.NaN], [1, 2]])).toEqual([0.375, 0.625, 1]);
  });

  it('weights passes run one after another by their shares, an earlier pass moving again changing nothing', () => {
    expect(totals([1, 3], [[0, 0.5], [0, 1], [1, 0], [1, 0.5], [0, 0.2], [1, 1]])).toEqual([0.125, 0.25, 0.625, 1]);
  });

  it('treats zero weights as nothing to wait for', () => {
    expect(totals([0, 0], [[0, 1]])).toEqual([]);
  });
});
