import type { ExportOptions } from './exportApi';
import { audioExportBlocker, CHOOSE_A_STEM, failureDescription, selectedStemIds, type AudioChoice } from './exportState';

const OPTIONS: ExportOptions = {
  projectId: 'p1',
  variants: {
    raw: { available: true, reason: null },
    landr: { available: false, reason: 'Master this project in AI Mastering first.' },
    dolby: { available: true, reason: null },
    both: { available: false, reason: null },
  },
  enhancedStemIds: ['p1-fast-vocals'],
  masteredStemTypes: [],
};
const choice = (over: Partial<AudioChoice> = {}): AudioChoice => ({ exportType: 'full-mix', format: 'wav-24-48', mastering: 'raw', selectedTypes: [], ...over });
const STEMS = (['vocals', 'drums', 'bass', 'other'] as const).map((type) => ({ id: `p1-fast-${type}`, type }));

describe('audio export choices', () => {
  it('can be sent for an available variant of a ready project', () => {
    expect(audioExportBlocker(choice(), null, OPTIONS)).toBeNull();
    expect(audioExportBlocker(choice({ mastering: 'dolby', exportType: 'individual' }), null, OPTIONS)).toBeNull();
  });

  it('says first why the project cannot be exported, then the variant, then the stems', () => {
    expect(audioExportBlocker(choice({ mastering: 'landr', exportType: 'selected' }), 'No project selected', OPTIONS)).toBe('No project selected');
    expect(audioExportBlocker(choice({ mastering: 'landr', exportType: 'selected' }), null, OPTIONS)).toBe('Master this project in AI Mastering first.');
    expect(audioExportBlocker(choice({ mastering: 'both' }), null, OPTIONS)).toBe('Mastered and enhanced audio is not available for this project yet.');
    expect(audioExportBlocker(choice({ exportType: 'selected' }), null, OPTIONS)).toBe(CHOOSE_A_STEM);
    expect(audioExportBlocker(choice({ exportType: 'selected', selectedTypes: ['bass'] }), null, OPTIONS)).toBeNull();
  });

  it('leaves the variant to the server while the options are not read yet', () => {
    expect(audioExportBlocker(choice({ mastering: 'landr' }), null, undefined)).toBeNull();
  });

  it('sends the ticked stems by id in the mixer order, and none for the other types', () => {
    expect(selectedStemIds(choice({ exportType: 'selected', selectedTypes: ['other', 'vocals'] }), STEMS)).toEqual(['p1-fast-vocals', 'p1-fast-other']);
    expect(selectedStemIds(choice({ exportType: 'individual', selectedTypes: ['other'] }), STEMS)).toEqual([]);
  });

  it("adds the server's reason to a failed export's words, not a 500 without words", () => {
    const base = 'Failed to export audio files';
    expect(failureDescription(base, { status: 409, data: { message: 'Master this project first' } })).toBe(`${base}: Master this project first`);
    expect(failureDescription(base, { status: 400, data: { message: 'stems: Choose at least one stem' } })).toBe(`${base}: stems: Choose at least one stem`);
    expect(failureDescription(base, { status: 500, data: { message: 'Internal server error', errorId: 'x' } })).toBe(base);
    expect(failureDescription(base, { status: 500, data: { message: 'The audio could not be processed', errorId: 'x' } })).toBe(`${base}: The audio could not be processed`);
    expect(failureDescription(base, { status: 500, data: { message: base, errorId: 'x' } })).toBe(base);
    expect(failureDescription(base, { status: 504, data: { message: 'The export is taking longer than expected' } })).toBe(`${base}: The export is taking longer than expected`);
    expect(failureDescription(base, { status: 'FETCH_ERROR', message: 'TypeError: Failed to fetch' })).toBe(base);
    expect(failureDescription(base, { status: 409, data: 'plain text' })).toBe(base);
    expect(failureDescription(base, undefined)).toBe(base);
  });
});
