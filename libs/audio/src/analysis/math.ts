/** Small numeric helpers shared by the analysis modules. */

export function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

/** Rounds to a fixed number of decimals (2 → 0.01 steps); -0 becomes 0. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale + 0;
}

/** Linear map of [low, high] onto [0, 1], clamped. */
export function unitRamp(value: number, low: number, high: number): number {
  return clamp01((value - low) / (high - low));
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

/** Linear interpolation of an array at a fractional index; 0 outside it. */
export function sampleAt(values: ArrayLike<number>, position: number): number {
  const i = Math.floor(position);
  if (i < 0 || i + 1 >= values.length) return i === values.length - 1 ? values[i] : 0;
  const frac = position - i;
  return values[i] * (1 - frac) + values[i + 1] * frac;
}

/** Pearson correlation of two equally long vectors (0 when either is constant). */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ma = mean(a);
  const mb = mean(b);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

export function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

export function nearestPowerOfTwo(n: number): number {
  const above = nextPowerOfTwo(n);
  return above - n <= n - above / 2 ? above : above / 2;
}
