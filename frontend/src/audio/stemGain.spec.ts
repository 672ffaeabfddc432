import { dbToGain, effectiveGain } from './stemGain';

describe('mix math', () => {
  it('converts dB to gain as 10^(dB/20), clamped to −60…+12', () => {
    expect(dbToGain(0)).toBe(1);
    expect(dbToGain(-6)).toBeCloseTo(0.501, 3);
    expect(dbToGain(40)).toBeCloseTo(dbToGain(12), 9);
  });

  it('silences muted stems and, while any stem is soloed, the others', () => {
    expect(effectiveGain({ volume: 0, muted: true, soloed: true }, true)).toBe(0);
    expect(effectiveGain({ volume: 0, muted: false, soloed: false }, true)).toBe(0);
    expect(effectiveGain({ volume: 0, muted: false, soloed: true }, true)).toBe(1);
  });
});
