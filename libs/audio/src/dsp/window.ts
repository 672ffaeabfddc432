/**
 * Periodic Hann window, w[n] = 0.5 − 0.5·cos(2πn/N). "Periodic" (not symmetric) so that shifted copies at
 * hop N/2 or N/4 add up to a constant — the property overlap-add resynthesis relies on.
 */
export function hannWindow(size: number): Float64Array {
  const window = new Float64Array(size);
  for (let n = 0; n < size; n++) window[n] = 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / size);
  return window;
}

/**
 * Square root of the periodic Hann window. Used for both analysis and synthesis: the product of the two is a
 * Hann window, so a masked STFT is smoothly cross-faded between frames and an unmasked one reconstructs exactly.
 */
export function sqrtHannWindow(size: number): Float64Array {
  const window = hannWindow(size);
  for (let n = 0; n < size; n++) window[n] = Math.sqrt(window[n]);
  return window;
}
