/**
 * Progress over several passes, each weighted by its share: `pass(i)` answers the callback for pass i (0–1
 * within it), the total (0–1) goes to `report`, never backwards.
 */
export function weightedProgress(weights: number[], report: (fraction: number) => void): (index: number) => (fraction: number) => void {
  const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  const starts = weights.map((_, index) => weights.slice(0, index).reduce((sum, weight) => sum + weight, 0) / total);
  let last = 0;
  return (index) => (fraction) => {
    const clamped = Math.min(1, Math.max(0, fraction));
    const overall = starts[index] + (clamped * weights[index]) / total;
    if (overall <= last) return;
    last = overall;
    report(overall);
  };
}
