/**
 * Progress over several parts that may run at the same time, each weighted by its share: `part(i)` answers the
 * callback for part i (0–1 within it); the weighted sum of every part's latest fraction (0–1) goes to `report`,
 * never backwards. Passes run one after another are parts too (a job's mastering passes, its stems enhanced in
 * turn): a pass counts only what it reported, so each should end by reporting 1, as ffmpeg runs and the
 * providers do.
 */
export function weightedProgress(weights: readonly number[], report: (fraction: number) => void): (index: number) => (fraction: number) => void {
  const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  const done = weights.map(() => 0);
  let last = 0;
  return (index) => (fraction) => {
    const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    if (clamped <= done[index]!) return;
    done[index] = clamped;
    const overall = done.reduce((sum, part, at) => sum + part * weights[at]!, 0) / total;
    if (overall <= last) return;
    last = overall;
    report(overall);
  };
}
