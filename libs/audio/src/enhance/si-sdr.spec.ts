import { siSdr } from './si-sdr';

const stereo = (left: number[], right = left) => ({ sampleRate: 8000, left: Float32Array.from(left), right: Float32Array.from(right) });

describe('siSdr', () => {
  const signal = Array.from({ length: 800 }, (_, i) => Math.sin(i / 5));
  it('ignores the estimate\'s gain', () => {
    expect(siSdr(stereo(signal), stereo(signal.map((v) => 0.3 * v)))).toBeGreaterThan(100);
  });
  it('reads the noise added: 10 dB SNR of uncorrelated noise reads near 10 dB', () => {
    const noise = signal.map((_, i) => (i % 2 ? 1 : -1) * Math.sqrt(0.5) / Math.sqrt(10));
    expect(siSdr(stereo(signal), stereo(signal.map((v, i) => v + noise[i])))).toBeCloseTo(10, 0);
  });
});
