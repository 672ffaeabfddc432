import { parseByteRange } from './byte-range';

describe('parseByteRange', () => {
  const size = 1000;

  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=500-', { start: 500, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
  ])('%s → %j', (header, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('%s is unsatisfiable', (header) => {
    expect(parseByteRange(header, size)).toBe('unsatisfiable');
  });

  it.each([undefined, '', 'bytes=0-1,5-9', 'items=0-5', 'bytes=9-3', 'bytes=-'])('serves the whole object for %j', (header) => {
    expect(parseByteRange(header, size)).toBeUndefined();
  });
});
