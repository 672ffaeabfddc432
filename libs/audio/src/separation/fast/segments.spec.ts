import { maxAnalysisFrames, planSegments } from './segments';

describe('planSegments', () => {
  const layout = { totalFrames: 103, overlap: 4, segmentFrames: 30, marginFrames: 5 };
  const segments = planSegments(layout);

  it('tiles the frames that start owned samples, in order, without gaps or overlaps', () => {
    expect(segments.map((s) => [s.ownFrom, s.ownTo])).toEqual([
      [0, 30],
      [30, 60],
      [60, 90],
      [90, 100],
    ]);
  });

  it('resynthesises every frame over the owned samples and analyses a margin around them, within the track', () => {
    expect(segments[1]).toEqual({ ownFrom: 30, ownTo: 60, synthesisTo: 63, analysisFrom: 25, analysisTo: 68 });
    expect(segments[0].analysisFrom).toBe(0);
    expect(segments[3].synthesisTo).toBe(103);
    expect(segments[3].analysisTo).toBe(103);
    expect(maxAnalysisFrames(segments)).toBe(43);
  });

  it('plans nothing for an empty track', () => {
    expect(planSegments({ ...layout, totalFrames: 3 })).toEqual([]);
  });
});
