import { dbToGain, effectiveGain, normalizeStems } from './stems';

describe('normalizeStems', () => {
  it('keeps the array answer, filling what is missing', () => {
    const [stem] = normalizeStems([{ id: 'p-fast-vocals', type: 'vocals', url: '/api/stems/p-fast-vocals/audio', volume: -3, muted: true, quality: 'good' }]);
    expect(stem).toEqual({ id: 'p-fast-vocals', projectId: null, type: 'vocals', engine: null, url: '/api/stems/p-fast-vocals/audio', volume: -3, muted: true, soloed: false, quality: 'good' });
  });

  it('turns the {stems: {type: url}} map into client stems stem-N with defaults', () => {
    expect(normalizeStems({ stems: { vocals: '/v.wav', drums: '/d.wav', bogus: '/x.wav' } })).toEqual([
      { id: 'stem-1', projectId: null, type: 'vocals', engine: null, url: '/v.wav', volume: 0, muted: false, soloed: false, quality: 'High' },
      { id: 'stem-2', projectId: null, type: 'drums', engine: null, url: '/d.wav', volume: 0, muted: false, soloed: false, quality: 'High' },
    ]);
    expect(normalizeStems(null)).toEqual([]);
  });
});

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
