import FFT = require('fft.js');
import { hannWindow } from '../dsp/window';

/** How a signal is cut into frames: window length (a power of two) and hop, both in samples. */
export interface Framing {
  frameSize: number;
  hop: number;
}

/** Number of whole frames (at least one: a short signal is zero-padded). */
export function frameCount(length: number, framing: Framing): number {
  return Math.max(1, Math.floor((length - framing.frameSize) / framing.hop) + 1);
}

/**
 * Short-time power spectra |X[k]|² with a Hann window, handed one frame at a time to `visit` (bins
 * 0..frameSize/2; the array is reused, so copy what you keep). Streaming keeps a 4-minute song's analysis at a
 * few MB, and power rather than magnitude spares a square root per bin where sums of power are all that is needed.
 */
export function forEachPowerSpectrum(
  signal: Float32Array,
  framing: Framing,
  visit: (frame: number, power: Float64Array) => void,
): void {
  const { frameSize, hop } = framing;
  const fft = new FFT(frameSize);
  const window = hannWindow(frameSize);
  const input = new Float64Array(frameSize);
  const spectrum = new Float64Array(2 * frameSize);
  const power = new Float64Array(frameSize / 2 + 1);
  const frames = frameCount(signal.length, framing);
  for (let frame = 0; frame < frames; frame++) {
    const start = frame * hop;
    const available = Math.min(frameSize, signal.length - start);
    for (let i = 0; i < available; i++) input[i] = signal[start + i] * window[i];
    input.fill(0, Math.max(0, available));
    fft.realTransform(spectrum, input);
    for (let bin = 0; bin < power.length; bin++) power[bin] = spectrum[2 * bin] ** 2 + spectrum[2 * bin + 1] ** 2;
    visit(frame, power);
  }
}
