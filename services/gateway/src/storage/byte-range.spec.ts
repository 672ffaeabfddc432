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

  it('finds nothing to serve in an empty object', () => {
    expect(parseByteRange('bytes=-100', 0)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it.each([undefined, '', 'bytes=0-1,5-9', 'bytes=0-1,5000-6000', 'items=0-5', 'items=5000-6000', 'bytes=9-3', 'bytes=-', 'bytes=x-5'])('serves the whole object for %j', (header) => {
    expect(parseByteRange(header, size)).toBeUndefined();
  });
});
