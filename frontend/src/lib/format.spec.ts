import { formatTime, progressPercent } from './format';

describe('formatTime', () => {
  it.each([
    [0, '0:00'],
    [5.9, '0:05'],
    [65, '1:05'],
    [600, '10:00'],
    [-3, '0:00'],
    [Number.NaN, '0:00'],
  ])('%s s → %s', (seconds, text) => expect(formatTime(seconds)).toBe(text));
});

describe('progressPercent', () => {
  it('is current over duration, and 0 when the duration is 0', () => {
    expect(progressPercent(30, 120)).toBe(25);
    expect(progressPercent(10, 0)).toBe(0);
    expect(progressPercent(200, 100)).toBe(100);
  });
});
