import FFT = require('fft.js');
import { nextPowerOfTwo } from './math';

/** |X[k]|² of the signal zero-padded to `size` (a power of two, at least 4), for k = 0..size − 1. */
export function powerSpectrum(signal: ArrayLike<number>, size: number): Float64Array {
  const fft = new FFT(size);
  const input = new Float64Array(2 * size);
  for (let i = 0; i < Math.min(signal.length, size); i++) input[2 * i] = signal[i];
  const spectrum = new Float64Array(2 * size);
  fft.transform(spectrum, input);
  const power = new Float64Array(size);
  for (let k = 0; k < size; k++) power[k] = spectrum[2 * k] ** 2 + spectrum[2 * k + 1] ** 2;
  return power;
}

/**
 * Autocorrelation r[lag] = Σ x[t]·x[t + lag] / (n − lag) for lag 0..maxLag, as the inverse FFT of the power
 * spectrum of the signal zero-padded to twice its length (Wiener–Khinchin). Dividing by the overlap keeps long
 * lags comparable with short ones.
 */
export function autocorrelation(signal: Float32Array, maxLag: number): Float64Array {
  const n = signal.length;
  const size = nextPowerOfTwo(Math.max(4, 2 * n));
  const power = powerSpectrum(signal, size);
  const fft = new FFT(size);
  const spectrum = new Float64Array(2 * size);
  for (let k = 0; k < size; k++) spectrum[2 * k] = power[k];
  const correlation = new Float64Array(2 * size);
  // fft.js's inverse transform divides by the size.
  fft.inverseTransform(correlation, spectrum);
  const out = new Float64Array(Math.max(0, Math.min(maxLag, n - 1)) + 1);
  for (let lag = 0; lag < out.length; lag++) out[lag] = correlation[2 * lag] / (n - lag);
  return out;
}

/** The same normalised autocorrelation at one lag, summed directly: cheaper than an FFT when few lags are needed. */
export function autocorrelationAt(signal: Float32Array, lag: number): number {
  const n = signal.length;
  if (lag < 0 || lag >= n) return 0;
  let sum = 0;
  for (let t = 0; t + lag < n; t++) sum += signal[t] * signal[t + lag];
  return sum / (n - lag);
}
