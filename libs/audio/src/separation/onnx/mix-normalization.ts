/**
 * Demucs's input normalisation (demucs.api / separate.py): the model was trained on mixes scaled to
 * zero mean and unit deviation of their mono sum, and its outputs are scaled back afterwards.
 */
export interface MixStatistics {
  mean: number;
  /** Standard deviation plus a tiny epsilon, so silence does not divide by zero. */
  scale: number;
}

export function mixStatistics(left: Float32Array, right: Float32Array): MixStatistics {
  const n = left.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (left[i] + right[i]) / 2;
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((left[i] + right[i]) / 2 - mean) ** 2;
  // Unbiased, as torch.std is.
  const std = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
  return { mean, scale: std + 1e-8 };
}

/** A normalised copy: the caller's mixture stays untouched. */
export function normalized(samples: Float32Array, { mean, scale }: MixStatistics): Float32Array {
  return samples.map((sample) => (sample - mean) / scale);
}

/** Undoes the normalisation on a model output (Demucs adds the mean back to every source). */
export function denormalizeInPlace(samples: Float32Array, { mean, scale }: MixStatistics): void {
  for (let i = 0; i < samples.length; i++) samples[i] = samples[i] * scale + mean;
}
