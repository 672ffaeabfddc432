import { hannWindow, sqrtHannWindow } from './window';

describe('windows', () => {
  it.each([2, 4])('periodic Hann shifted by size/%i sums to a constant', (overlap) => {
    const size = 64;
    const window = hannWindow(size);
    const hop = size / overlap;
    for (let n = 0; n < hop; n++) {
      let sum = 0;
      for (let k = 0; k < overlap; k++) sum += window[n + k * hop];
      expect(sum).toBeCloseTo(overlap / 2, 12);
    }
  });

  it('√Hann squared is Hann', () => {
    const hann = hannWindow(32);
    sqrtHannWindow(32).forEach((w, n) => expect(w * w).toBeCloseTo(hann[n], 12));
  });
});
