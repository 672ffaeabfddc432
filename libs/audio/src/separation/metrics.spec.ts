import type { StereoAudio } from '../types';
import { globalSdr } from './metrics';

function audio(left: number[], right: number[]): StereoAudio {
  return { sampleRate: 8000, left: Float32Array.from(left), right: Float32Array.from(right) };
}

describe('globalSdr', () => {
  const reference = audio([1, -1, 0.5, 0.25], [0.5, 0.5, -1, 0]);

  it('is 0 dB for a silent estimate', () => {
    expect(globalSdr(reference, audio([0, 0, 0, 0], [0, 0, 0, 0]))).toBeCloseTo(0, 6);
  });

  it('is 20·log10(2) ≈ 6.02 dB for an estimate at half amplitude', () => {
    const half = audio([0.5, -0.5, 0.25, 0.125], [0.25, 0.25, -0.5, 0]);
    expect(globalSdr(reference, half)).toBeCloseTo(20 * Math.log10(2), 5);
  });

  it('sums signal and error over both channels of the whole track', () => {
    // Right channel silenced: error = right's energy (1.5), signal = both channels' energy (2.3125 + 1.5).
    const leftOnly = audio([1, -1, 0.5, 0.25], [0, 0, 0, 0]);
    expect(globalSdr(reference, leftOnly)).toBeCloseTo(10 * Math.log10(3.8125 / 1.5), 5);
  });

  it('is large and finite for a perfect estimate, and 0 dB for silence against silence', () => {
    expect(globalSdr(reference, reference)).toBeGreaterThan(70);
    const silent = audio([0, 0], [0, 0]);
    expect(globalSdr(silent, silent)).toBe(0);
  });
});
