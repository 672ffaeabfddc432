import type { AudioExportBody } from '@stemdeck/proto';
import { ExportRefused } from './export-refused';
import {
  exportOptions,
  NO_ENHANCED_STEMS,
  NO_MASTER,
  NO_MASTERED_STEMS,
  notEnhanced,
  notInStemMaster,
  planAudioExport,
  STEMS_NOT_READY,
  type ExportState,
  type PlannedRef,
} from './export-plan';
import { ENHANCED, fullMixMaster, perStemMaster, stemGroupsMaster, stemsOf } from './testing/fake-peers';

const body = (changes: Partial<AudioExportBody>): AudioExportBody => ({ projectId: 'p', exportType: 'individual', format: 'wav-24-48', mastering: 'raw', stems: [], ...changes });
const state = (changes: Partial<ExportState> = {}): ExportState => ({ song: 'Song', stems: stemsOf('p'), masters: [], ...changes });

/** A plan's files in a short form: name ← source. */
function sources(files: PlannedRef[]): string[] {
  return files.map((file) => {
    if (file.kind === 'mix') return `${file.name} ← mix ${file.stems.map(({ stem, version }) => `${stem.type}${version ? `:${version}` : ''}`).join(' ')}`;
    const { source } = file;
    return `${file.name} ← ${source.kind === 'stem' ? `${source.stem.type}${source.version ? `:${source.version}` : ''}` : `${source.jobId}/${source.output}`}`;
  });
}

const refusal = (run: () => unknown): ExportRefused => {
  try {
    run();
  } catch (error) {
    if (error instanceof ExportRefused) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('planAudioExport', () => {
  it('raw individual: every stem as it plays, one zip named after the song', () => {
    const plan = planAudioExport(state({ stems: stemsOf('p', { bass: { muted: true } }) }), body({}));
    expect(plan.filename).toBe('Song - stems.zip');
    expect(sources(plan.files)).toEqual(['Song - vocals.wav ← vocals', 'Song - drums.wav ← drums', 'Song - bass.wav ← bass', 'Song - other.wav ← other']);
  });

  it('raw full-mix: one file, every stem in the mix (the renderer applies their volume, mute and solo)', () => {
    const plan = planAudioExport(state(), body({ exportType: 'full-mix', format: 'mp3-320' }));
    expect(plan.filename).toBe('Song - full mix.mp3');
    expect(sources(plan.files)).toEqual(['Song - full mix.mp3 ← mix vocals drums bass other']);
  });

  it('raw selected: the listed stems, each once, in the order asked; one stem is one file', () => {
    const many = planAudioExport(state(), body({ exportType: 'selected', format: 'flac', stems: ['p-bass', 'p-vocals', 'p-bass'] }));
    expect(many.filename).toBe('Song - selected stems.zip');
    expect(sources(many.files)).toEqual(['Song - bass.flac ← bass', 'Song - vocals.flac ← vocals']);
    const one = planAudioExport(state(), body({ exportType: 'selected', format: 'aiff-24-48', stems: ['p-drums'] }));
    expect(one.filename).toBe('Song - drums.aiff');
  });

  it('answers 400 naming the listed stem that is not this project\'s', () => {
    const refused = refusal(() => planAudioExport(state(), body({ exportType: 'selected', stems: ['p-vocals', 'other-project-bass'] })));
    expect(refused).toMatchObject({ status: 400, message: 'stems.1: Not a stem of this project' });
  });

  it.each(['raw', 'landr', 'dolby', 'both'] as const)('%s: answers 409 "Stems are not ready yet" before the stems exist', (mastering) => {
    for (const exportType of ['individual', 'full-mix', 'selected'] as const) {
      expect(refusal(() => planAudioExport(state({ stems: [] }), body({ exportType, mastering, stems: ['x'] })))).toMatchObject({ status: 409, message: STEMS_NOT_READY });
    }
  });

  describe('landr', () => {
    it('full-mix takes the latest completed master\'s full mix: master.flac, or mix.flac of a per-stem or stem-groups master', () => {
      const latestFull = planAudioExport(state({ masters: [fullMixMaster('m2'), perStemMaster('m1')] }), body({ exportType: 'full-mix', mastering: 'landr' }));
      expect(sources(latestFull.files)).toEqual(['Song - full mix (mastered).wav ← m2/master.flac']);
      expect(latestFull.filename).toBe('Song - full mix (mastered).wav');
      const latestGroups = planAudioExport(state({ masters: [stemGroupsMaster('m3'), fullMixMaster('m2')] }), body({ exportType: 'full-mix', mastering: 'landr' }));
      expect(sources(latestGroups.files)).toEqual(['Song - full mix (mastered).wav ← m3/mix.flac']);
    });

    it('individual takes the latest per-stem master\'s stems (a newer full-mix master does not hide it); stems it left out are not exported', () => {
      const plan = planAudioExport(state({ masters: [fullMixMaster('m3'), perStemMaster('m2', ['vocals', 'drums', 'other']), perStemMaster('m1')] }), body({ mastering: 'landr' }));
      expect(plan.filename).toBe('Song - stems (mastered).zip');
      expect(sources(plan.files)).toEqual(['Song - vocals (mastered).wav ← m2/vocals.flac', 'Song - drums (mastered).wav ← m2/drums.flac', 'Song - other (mastered).wav ← m2/other.flac']);
    });

    it('answers 409 saying what to run first', () => {
      expect(refusal(() => planAudioExport(state(), body({ exportType: 'full-mix', mastering: 'landr' })))).toMatchObject({ status: 409, message: NO_MASTER });
      for (const exportType of ['individual', 'selected'] as const) {
        const refused = refusal(() => planAudioExport(state({ masters: [fullMixMaster('m2'), stemGroupsMaster('m1')] }), body({ exportType, mastering: 'landr', stems: ['p-vocals'] })));
        expect(refused).toMatchObject({ status: 409, message: NO_MASTERED_STEMS });
      }
    });

    it('selected: each listed stem must be in the latest per-stem master (409 naming the one that is not)', () => {
      const masters = [perStemMaster('m1', ['vocals', 'drums'])];
      expect(sources(planAudioExport(state({ masters }), body({ exportType: 'selected', mastering: 'landr', stems: ['p-drums'] })).files)).toEqual([
        'Song - drums (mastered).wav ← m1/drums.flac',
      ]);
      const refused = refusal(() => planAudioExport(state({ masters }), body({ exportType: 'selected', mastering: 'landr', stems: ['p-vocals', 'p-bass'] })));
      expect(refused).toMatchObject({ status: 409, message: notInStemMaster('bass') });
    });
  });

  describe('dolby', () => {
    const enhanced = stemsOf('p', { vocals: { enhanced: ENHANCED }, bass: { enhanced: ENHANCED } });

    it('individual: every stem that has an enhanced version', () => {
      const plan = planAudioExport(state({ stems: enhanced }), body({ mastering: 'dolby', format: 'wav-16-44' }));
      expect(plan.filename).toBe('Song - stems (enhanced).zip');
      expect(sources(plan.files)).toEqual(['Song - vocals (enhanced).wav ← vocals:enhanced', 'Song - bass (enhanced).wav ← bass:enhanced']);
    });

    it('full-mix: the mix with the enhanced versions where they exist, the originals elsewhere', () => {
      const plan = planAudioExport(state({ stems: enhanced }), body({ exportType: 'full-mix', mastering: 'dolby' }));
      expect(sources(plan.files)).toEqual(['Song - full mix (enhanced).wav ← mix vocals:enhanced drums:original bass:enhanced other:original']);
    });

    it('selected: 409 naming a listed stem without an enhanced version', () => {
      expect(sources(planAudioExport(state({ stems: enhanced }), body({ exportType: 'selected', mastering: 'dolby', stems: ['p-bass'] })).files)).toEqual([
        'Song - bass (enhanced).wav ← bass:enhanced',
      ]);
      const refused = refusal(() => planAudioExport(state({ stems: enhanced }), body({ exportType: 'selected', mastering: 'dolby', stems: ['p-vocals', 'p-drums'] })));
      expect(refused).toMatchObject({ status: 409, message: notEnhanced('drums') });
    });

    it.each(['individual', 'full-mix', 'selected'] as const)('%s: 409 when no stem is enhanced', (exportType) => {
      expect(refusal(() => planAudioExport(state(), body({ exportType, mastering: 'dolby', stems: ['p-vocals'] })))).toMatchObject({ status: 409, message: NO_ENHANCED_STEMS });
    });
  });

  describe('both', () => {
    const stems = stemsOf('p', { vocals: { enhanced: ENHANCED } });

    it('puts the mastered and the enhanced variants in one zip', () => {
      const fullMix = planAudioExport(state({ stems, masters: [fullMixMaster('m1')] }), body({ exportType: 'full-mix', mastering: 'both', format: 'flac' }));
      expect(fullMix.filename).toBe('Song - full mix (mastered and enhanced).zip');
      expect(sources(fullMix.files)).toEqual(['Song - full mix (mastered).flac ← m1/master.flac', 'Song - full mix (enhanced).flac ← mix vocals:enhanced drums:original bass:original other:original']);
      const selected = planAudioExport(state({ stems, masters: [perStemMaster('m1')] }), body({ exportType: 'selected', mastering: 'both', stems: ['p-vocals'] }));
      expect(selected.filename).toBe('Song - selected stems (mastered and enhanced).zip');
      expect(sources(selected.files)).toEqual(['Song - vocals (mastered).wav ← m1/vocals.flac', 'Song - vocals (enhanced).wav ← vocals:enhanced']);
    });

    it('answers 409 naming every missing variant', () => {
      expect(refusal(() => planAudioExport(state(), body({ exportType: 'full-mix', mastering: 'both' })))).toMatchObject({ status: 409, message: `${NO_MASTER}; ${NO_ENHANCED_STEMS}` });
      expect(refusal(() => planAudioExport(state({ stems }), body({ exportType: 'full-mix', mastering: 'both' })))).toMatchObject({ status: 409, message: NO_MASTER });
      expect(refusal(() => planAudioExport(state({ stems, masters: [fullMixMaster('m1')] }), body({ mastering: 'both' })))).toMatchObject({ status: 409, message: NO_MASTERED_STEMS });
    });
  });
});

describe('exportOptions', () => {
  it('offers raw only, saying what to run for the others, before any master or enhancement', () => {
    expect(exportOptions('p', { stems: stemsOf('p'), masters: [] })).toEqual({
      projectId: 'p',
      variants: {
        raw: { available: true, reason: null },
        landr: { available: false, reason: NO_MASTER },
        dolby: { available: false, reason: NO_ENHANCED_STEMS },
        both: { available: false, reason: `${NO_MASTER}; ${NO_ENHANCED_STEMS}` },
      },
      enhancedStemIds: [],
      masteredStemTypes: [],
    });
  });

  it('offers every variant once a master completed and a stem is enhanced, naming the enhanced stems and the latest per-stem master\'s types', () => {
    const options = exportOptions('p', { stems: stemsOf('p', { drums: { enhanced: ENHANCED } }), masters: [fullMixMaster('m2'), perStemMaster('m1', ['vocals', 'bass'])] });
    expect(Object.values(options.variants).every((variant) => variant.available)).toBe(true);
    expect(options.enhancedStemIds).toEqual(['p-drums']);
    expect(options.masteredStemTypes).toEqual(['vocals', 'bass']);
  });

  it('offers nothing before the stems exist', () => {
    const options = exportOptions('p', { stems: [], masters: [] });
    expect(Object.values(options.variants)).toEqual(Array(4).fill({ available: false, reason: STEMS_NOT_READY }));
  });
});
