/**
 * Progress over several steps, each weighted by its share: `step(i)` answers the callback for step i (0–1
 * within it), the total (0–1) goes to `report`, never backwards.
 */
export function weightedProgress(weights: readonly number[], report: (fraction: number) => void): (index: number) => (fraction: number) => void {
  const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  const starts = weights.map((_, index) => weights.slice(0, index).reduce((sum, weight) => sum + weight, 0) / total);
  let last = 0;
  return (index) => (fraction) => {
    const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    const overall = starts[index]! + (clamped * weights[index]!) / total;
    if (overall <= last) return;
    last = overall;
    report(overall);
  };
}
