import { weightedProgress } from './weighted-progress';

describe('weightedProgress', () => {
  it('weights each pass by its share and never goes backwards', () => {
    const reports: number[] = [];
    const pass = weightedProgress([1, 3], (fraction) => reports.push(fraction));
    pass(0)(0.5);
    pass(0)(1);
    pass(1)(0);
    pass(1)(0.5);
    pass(0)(0.2);
    pass(1)(1);
    expect(reports).toEqual([0.125, 0.25, 0.625, 1]);
  });
});
