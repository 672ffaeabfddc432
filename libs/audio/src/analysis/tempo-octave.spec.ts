import { LEVEL_CUES, LEVEL_MODEL, levelScore, type LevelFeatures } from './tempo-octave';

/** A candidate's cues at the model's own means: every standardised cue 0. */
const atMean = (): LevelFeatures => {
  const features = { bpm: 120 } as LevelFeatures;
  LEVEL_CUES.forEach((cue, j) => (features[cue] = LEVEL_MODEL.mean[j]));
  return features;
};

describe('the metrical level model', () => {
  it('has one mean, scale, linear weight and row of unit weights per cue, and one bias and output per unit', () => {
    const units = LEVEL_MODEL.output.length;
    expect(units).toBeGreaterThan(0);
    for (const perCue of [LEVEL_MODEL.mean, LEVEL_MODEL.scale, LEVEL_MODEL.linear, LEVEL_MODEL.hidden]) expect(perCue).toHaveLength(LEVEL_CUES.length);
    for (const row of LEVEL_MODEL.hidden) expect(row).toHaveLength(units);
    expect(LEVEL_MODEL.hiddenBias).toHaveLength(units);
    expect(LEVEL_MODEL.scale.every((scale) => scale > 0)).toBe(true);
  });

  it('scores a candidate as the linear term plus the tanh units over its standardised cues', () => {
    const base = atMean();
    const expectedAtMean = LEVEL_MODEL.output.reduce((sum, weight, unit) => sum + weight * Math.tanh(LEVEL_MODEL.hiddenBias[unit]), 0);
    expect(levelScore(base)).toBeCloseTo(expectedAtMean, 10);
    // One scale's step up in the tempo cue alone: its linear weight plus each unit's response to it.
    const j = LEVEL_CUES.indexOf('octaves');
    const stepped = { ...base, octaves: base.octaves + LEVEL_MODEL.scale[j] };
    const expected = LEVEL_MODEL.linear[j] + LEVEL_MODEL.output.reduce((sum, weight, unit) => sum + weight * Math.tanh(LEVEL_MODEL.hiddenBias[unit] + LEVEL_MODEL.hidden[j][unit]), 0);
    expect(levelScore(stepped)).toBeCloseTo(expected, 10);
  });

  it('scores a cue that could not be measured (NaN) as if it were at its mean', () => {
    const base = atMean();
    expect(levelScore({ ...base, harmonyFour: NaN, harmonyEight: NaN })).toBeCloseTo(levelScore(base), 12);
    const j = LEVEL_CUES.indexOf('harmonyFour');
    expect(levelScore({ ...base, harmonyFour: base.harmonyFour + LEVEL_MODEL.scale[j] })).not.toBeCloseTo(levelScore(base), 6);
  });
});
