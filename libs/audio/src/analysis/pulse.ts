/**
 * The pulse signal: onset strength minus its moving average over AVERAGE_SECONDS, negative parts set to 0. Only
 * the peaks (note and drum onsets) remain, and level changes between sections do not shift the autocorrelation.
 */
const AVERAGE_SECONDS = 0.5;

export function pulseSignal(strength: Float32Array, framesPerSecond: number): Float32Array {
  const out = new Float32Array(strength.length);
  const half = Math.max(1, Math.round((AVERAGE_SECONDS / 2) * framesPerSecond));
  // Running sum over the frames [i − half, i + half] that exist.
  let sum = 0;
  for (let i = 0; i < Math.min(half, strength.length); i++) sum += strength[i];
  for (let i = 0; i < strength.length; i++) {
    if (i + half < strength.length) sum += strength[i + half];
    if (i - half - 1 >= 0) sum -= strength[i - half - 1];
    const count = Math.min(strength.length - 1, i + half) - Math.max(0, i - half) + 1;
    out[i] = Math.max(0, strength[i] - sum / count);
  }
  return out;
}
