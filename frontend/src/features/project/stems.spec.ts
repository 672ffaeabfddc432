import { normalizeStems } from './stems';

describe('normalizeStems', () => {
  it('keeps the array answer, filling what is missing', () => {
    const [stem] = normalizeStems([{ id: 'p-fast-vocals', type: 'vocals', url: '/api/stems/p-fast-vocals/audio', volume: -3, muted: true, quality: 'good' }]);
    expect(stem).toEqual({ id: 'p-fast-vocals', projectId: null, type: 'vocals', engine: null, url: '/api/stems/p-fast-vocals/audio', volume: -3, muted: true, soloed: false, quality: 'good' });
  });

  it('clamps a stored volume to the slider range', () => {
    const answer = [40, -90, Number.NaN].map((volume, i) => ({ id: `s${i}`, type: 'drums' as const, url: `/s${i}`, volume }));
    expect(normalizeStems(answer).map((stem) => stem.volume)).toEqual([12, -60, 0]);
  });
});
