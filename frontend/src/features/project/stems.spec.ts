import { normalizeStems } from './stems';

describe('normalizeStems', () => {
  it('keeps the array answer, filling what is missing', () => {
    const [stem] = normalizeStems([{ id: 'p-fast-vocals', type: 'vocals', url: '/api/stems/p-fast-vocals/audio', volume: -3, muted: true, quality: 'good' }]);
    expect(stem).toEqual({ id: 'p-fast-vocals', projectId: null, type: 'vocals', engine: null, url: '/api/stems/p-fast-vocals/audio', volume: -3, muted: true, soloed: false, quality: 'good', version: 'original', enhanced: null });
  });

  it("takes the stem's version and its enhanced one when the server names them", () => {
    const enhanced = { jobId: 'j1', createdAt: '2026-11-23T17:00:00.000Z' };
    const [stem] = normalizeStems([{ id: 's', type: 'vocals', url: '/api/stems/s/audio?version=enhanced', version: 'enhanced', enhanced }]);
    expect(stem).toMatchObject({ version: 'enhanced', enhanced, url: '/api/stems/s/audio?version=enhanced' });
  });

  it('clamps a stored volume to the slider range', () => {
    const answer = [40, -90, Number.NaN].map((volume, i) => ({ id: `s${i}`, type: 'drums' as const, url: `/s${i}`, volume }));
    expect(normalizeStems(answer).map((stem) => stem.volume)).toEqual([12, -60, 0]);
  });
});
