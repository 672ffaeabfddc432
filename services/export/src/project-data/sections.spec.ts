import { barPower, detectSections, sectionBoundaries, sectionsCsv } from './sections';

/** Mean square per bar for a level in dB. */
const bars = (...runs: Array<[count: number, db: number]>): number[] => runs.flatMap(([count, db]) => Array.from({ length: count }, () => 10 ** (db / 10)));

describe('sections from the mix energy', () => {
  it('finds the bar lines where a synthetic song gets louder and quieter', () => {
    // intro 8 quiet bars, 16 loud, 8 medium, 16 loud, 8 quiet outro
    const song = bars([8, -30], [16, -12], [8, -20], [16, -12], [8, -30]);
    expect(sectionBoundaries(song)).toEqual([8, 24, 32, 48]);
    const sections = detectSections(song);
    expect(sections.map((s) => [s.startBar, s.endBar, s.label])).toEqual([
      [0, 8, 'section 1 (low)'],
      [8, 24, 'section 2 (mid)'],
      [24, 32, 'section 3 (low)'],
      [32, 48, 'section 4 (mid)'],
      [48, 56, 'section 5 (low)'],
    ]);
    // Energy: RMS against the loudest section; the loud ones are 1, the quiet ones 18 dB down.
    expect(sections[1]!.energy).toBeCloseTo(1, 6);
    expect(sections[0]!.energy).toBeCloseTo(10 ** (-18 / 20), 6);
  });

  it('labels by the level against the median bar: high, mid, low', () => {
    const sections = detectSections(bars([16, -20], [16, -10], [16, -20], [16, -30]));
    expect(sections.map((s) => s.level)).toEqual(['mid', 'high', 'mid', 'low']);
  });

  it('keeps every section at least 8 bars long, however often the level changes', () => {
    const song = bars([4, -30], [4, -10], [4, -30], [4, -10], [4, -30], [4, -10], [4, -30], [4, -10]);
    const lines = [0, ...sectionBoundaries(song), song.length];
    for (let i = 1; i < lines.length; i++) expect(lines[i]! - lines[i - 1]!).toBeGreaterThanOrEqual(8);
  });

  it('leaves a steady song, small changes and a short song as one section', () => {
    expect(detectSections(bars([64, -14]))).toHaveLength(1);
    expect(detectSections(bars([32, -14], [32, -15.5]))).toHaveLength(1);
    expect(detectSections(bars([6, -40], [6, -5]))).toHaveLength(1);
    expect(detectSections([])).toEqual([]);
  });

  it('treats digital silence as −80 dB, not minus infinity', () => {
    const sections = detectSections(bars([8, -20], [8, -20]).map((power, bar) => (bar < 8 ? 0 : power)));
    expect(sections.map((s) => s.level)).toHaveLength(2);
    expect(sections.every((s) => Number.isFinite(s.energy))).toBe(true);
  });

  it('averages frames into bars at the bar length', () => {
    // 2 s bars at 4 fps: 8 frames per bar; 20 frames → 3 bars, the last of 4 frames.
    const frames = Float64Array.from({ length: 20 }, (_, frame) => (frame < 8 ? 1 : frame < 16 ? 3 : 5));
    expect(barPower(frames, 4, 2)).toEqual([1, 3, 5]);
  });

  it('writes sections.csv: seconds, bars from 1, the last ending with the song', () => {
    const sections = detectSections(bars([8, -30], [8, -10]));
    const csv = sectionsCsv(sections, 2, 31.5);
    expect(csv.split('\n')).toEqual([
      'start,end,start_bar,end_bar,label,energy',
      '0,16,1,8,section 1 (low),0.1',
      '16,31.5,9,16,section 2 (high),1',
      '',
    ]);
  });
});
