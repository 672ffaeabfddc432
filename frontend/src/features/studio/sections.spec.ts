import { DEFAULT_SECTION, findSection, STUDIO_SECTIONS } from './sections';

describe('studio sections', () => {
  it('has the five sections of seed 000 §2 with separator first and default', () => {
    expect(STUDIO_SECTIONS.map((s) => [s.id, s.label])).toEqual([
      ['separator', 'Upload & Split'],
      ['pads', 'Create Music'],
      ['visuals', 'Video & Visuals'],
      ['mastering', 'AI Mastering'],
      ['export', 'Export & Share'],
    ]);
    expect(DEFAULT_SECTION).toBe('separator');
    expect(findSection('mastering')?.subtitle).toBe('Professional mastering using cloud APIs - offline processing only');
  });

  it('finds nothing for an unknown id', () => {
    expect(findSection('karaoke')).toBeUndefined();
  });
});
