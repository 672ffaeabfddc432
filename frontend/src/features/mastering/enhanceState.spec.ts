import { DEFAULT_ENHANCE, enhanceChoiceProblem, enhancedOutputs, NO_ENHANCEMENT, NO_TARGET_STEM } from './enhanceState';

const figures = (integratedLufs: number) => ({ integratedLufs, lra: 5, truePeakDbtp: -1.2 });

describe('enhancement settings', () => {
  it('default to noise reduction on the vocals, which can be sent as they are', () => {
    expect(DEFAULT_ENHANCE.enhancements).toEqual({ noiseReduction: true, loudnessNormalization: false, speechEnhancement: false });
    expect(DEFAULT_ENHANCE.targetStems).toEqual({ vocals: true, drums: false, bass: false, other: false });
    expect(enhanceChoiceProblem(DEFAULT_ENHANCE)).toBeNull();
  });

  it('need at least one enhancement and at least one stem, and say which is missing', () => {
    const none = { noiseReduction: false, loudnessNormalization: false, speechEnhancement: false };
    expect(enhanceChoiceProblem({ ...DEFAULT_ENHANCE, enhancements: none })).toBe(NO_ENHANCEMENT);
    expect(enhanceChoiceProblem({ ...DEFAULT_ENHANCE, targetStems: { vocals: false, drums: false, bass: false, other: false } })).toBe(NO_TARGET_STEM);
    expect(enhanceChoiceProblem({ enhancements: { ...none, speechEnhancement: true }, targetStems: { vocals: false, drums: false, bass: true, other: false } })).toBeNull();
  });
});

describe("a finished enhance job's stems", () => {
  it('are its stem outputs in mixer order, each with its url and figures (missing ones null)', () => {
    const outputs = enhancedOutputs({
      result: {
        outputs: [
          { name: 'other.flac', url: '/o', stemType: 'other', before: figures(-30), after: figures(-16) },
          { name: 'vocals.flac', url: '/v', stemType: 'vocals', before: figures(-20), after: figures(-16) },
          { name: 'notes.txt', url: '/n' },
          { name: 'bass.flac', url: '/b', stemType: 'bass' },
        ],
      },
    });
    expect(outputs.map((o) => o.stemType)).toEqual(['vocals', 'bass', 'other']);
    expect(outputs[0]).toEqual({ name: 'vocals.flac', url: '/v', stemType: 'vocals', before: figures(-20), after: figures(-16) });
    expect(outputs[1]).toMatchObject({ before: null, after: null });
  });

  it('are none before the job has a result', () => {
    expect(enhancedOutputs({})).toEqual([]);
  });
});
