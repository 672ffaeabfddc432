import type { ExportOptions, ExportRecord } from './exportApi';
import {
  exportPlace,
  audioExportBlocker,
  CHOOSE_A_STEM,
  chosenStems,
  failureDescription,
  NEEDS_ENHANCED_EACH,
  NEEDS_ENHANCED_STEM,
  NEEDS_STEM_MASTER,
  NEEDS_STEM_MASTER_OF_EACH,
  selectedStemIds,
  variantChoices,
  type AudioChoice,
} from './exportState';

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

/** A full-mix master exists (so the server offers landr), but no per-stem master; only vocals are enhanced. */
const MIX_MASTERED: ExportOptions = {
  projectId: 'p1',
  variants: { raw: { available: true, reason: null }, landr: { available: true, reason: null }, dolby: { available: true, reason: null }, both: { available: true, reason: null } },
  enhancedStemIds: ['p1-fast-vocals'],
  masteredStemTypes: [],
};
const available = (choices: ReturnType<typeof variantChoices>) => Object.fromEntries(Object.entries(choices!).map(([variant, { available }]) => [variant, available]));

describe('which versions each export type can take', () => {
  it('a full mix takes what the server says', () => {
    expect(variantChoices(MIX_MASTERED, 'full-mix', STEMS)).toBe(MIX_MASTERED.variants);
    expect(variantChoices(OPTIONS, 'full-mix', STEMS)).toBe(OPTIONS.variants);
    expect(variantChoices(undefined, 'individual', STEMS)).toBeUndefined();
  });

  it('stems need a per-stem master: a full-mix master alone does not make Mastered stems', () => {
    const individual = variantChoices(MIX_MASTERED, 'individual', STEMS)!;
    expect(available(individual)).toEqual({ raw: true, landr: false, dolby: true, both: false });
    expect(individual.landr.reason).toBe(NEEDS_STEM_MASTER);
    expect(individual.both.reason).toBe(NEEDS_STEM_MASTER);
    const selected = variantChoices(MIX_MASTERED, 'selected', chosenStems({ exportType: 'selected', selectedTypes: ['vocals'] }, STEMS))!;
    expect(available(selected)).toEqual({ raw: true, landr: false, dolby: true, both: false });
    expect(selected.landr.reason).toBe(NEEDS_STEM_MASTER_OF_EACH);
  });

  it('individual stems take a per-stem master or an enhanced stem once there is one', () => {
    const some = { ...MIX_MASTERED, masteredStemTypes: ['drums' as const] };
    expect(available(variantChoices(some, 'individual', STEMS))).toEqual({ raw: true, landr: true, dolby: true, both: true });
    const none = variantChoices({ ...some, enhancedStemIds: [] }, 'individual', STEMS)!;
    expect(available(none)).toEqual({ raw: true, landr: true, dolby: false, both: false });
    expect(none.dolby.reason).toBe(NEEDS_ENHANCED_STEM);
    expect(none.both.reason).toBe(NEEDS_ENHANCED_STEM);
  });

  it('selected stems take a version only when every ticked stem has it', () => {
    const options = { ...MIX_MASTERED, masteredStemTypes: ['vocals' as const, 'drums' as const], enhancedStemIds: ['p1-fast-vocals', 'p1-fast-bass'] };
    const pick = (...selectedTypes: AudioChoice['selectedTypes']) => variantChoices(options, 'selected', chosenStems({ exportType: 'selected', selectedTypes }, STEMS))!;
    expect(available(pick('vocals'))).toEqual({ raw: true, landr: true, dolby: true, both: true });
    expect(available(pick('vocals', 'drums'))).toEqual({ raw: true, landr: true, dolby: false, both: false });
    expect(pick('vocals', 'drums').dolby.reason).toBe(NEEDS_ENHANCED_EACH);
    expect(available(pick('vocals', 'bass'))).toEqual({ raw: true, landr: false, dolby: true, both: false });
    expect(available(pick('other'))).toEqual({ raw: true, landr: false, dolby: false, both: false });
    expect(pick('other').both.reason).toBe(`${NEEDS_STEM_MASTER_OF_EACH}; ${NEEDS_ENHANCED_EACH}`);
    // None ticked yet: a version is offered when some stem has it.
    expect(available(pick())).toEqual({ raw: true, landr: true, dolby: true, both: true });
  });

  it('before the stems exist every version is what the server says', () => {
    const notReady = { available: false, reason: 'Stems are not ready yet' };
    const options: ExportOptions = { projectId: 'p1', variants: { raw: notReady, landr: notReady, dolby: notReady, both: notReady }, enhancedStemIds: [], masteredStemTypes: [] };
    expect(variantChoices(options, 'individual', [])).toBe(options.variants);
  });
});

describe('audio export choices', () => {
  it('can be sent for an available variant of a ready project', () => {
    expect(audioExportBlocker(choice(), null, OPTIONS.variants)).toBeNull();
    expect(audioExportBlocker(choice({ mastering: 'dolby', exportType: 'individual' }), null, variantChoices(OPTIONS, 'individual', STEMS))).toBeNull();
  });

  it('says first why the project cannot be exported, then the variant, then the stems', () => {
    expect(audioExportBlocker(choice({ mastering: 'landr', exportType: 'selected' }), 'No project selected', OPTIONS.variants)).toBe('No project selected');
    expect(audioExportBlocker(choice({ mastering: 'landr', exportType: 'selected' }), null, OPTIONS.variants)).toBe('Master this project in AI Mastering first.');
    expect(audioExportBlocker(choice({ mastering: 'both' }), null, OPTIONS.variants)).toBe('Mastered and enhanced audio is not available for this project yet.');
    expect(audioExportBlocker(choice({ exportType: 'selected' }), null, OPTIONS.variants)).toBe(CHOOSE_A_STEM);
    expect(audioExportBlocker(choice({ exportType: 'selected', selectedTypes: ['bass'] }), null, OPTIONS.variants)).toBeNull();
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

describe('the place of the export a panel waits for', () => {
  const record = (id: string, createdAt: string, queuePosition?: number): ExportRecord => ({
    id,
    projectId: 'p1',
    kind: 'audio',
    status: 'processing',
    progress: 0,
    filename: 'song.wav',
    createdAt,
    expiresAt: '2026-11-25T00:00:00.000Z',
    ...(queuePosition ? { queuePosition } : {}),
  });

  it("is the newest export's place in the user's line, or none while it is being built (or nothing is read yet)", () => {
    expect(exportPlace(undefined)).toBeNull();
    expect(exportPlace([])).toBeNull();
    expect(exportPlace([record('a', '2026-11-24T10:00:00.000Z'), record('c', '2026-11-24T10:00:02.000Z', 2), record('b', '2026-11-24T10:00:01.000Z', 1)])).toBe(2);
    expect(exportPlace([record('a', '2026-11-24T10:00:00.000Z', 1), record('b', '2026-11-24T10:00:01.000Z')])).toBeNull();
  });
});
