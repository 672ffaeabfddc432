/** @jest-environment ./libs/audio/src/separation/onnx/testing/ort-test-environment.js */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STEM_TYPES, type StemType } from '../../types';
import { BUNDLED_MODEL_PATH, bundledEngineSpec } from './bundled-model';
import { loadRegressionClip, REGRESSION_ENGINES, regressionFloor, separateRegressionClip, type RegressionClip, type RegressionEngine } from './regression-clip';

/**
 * The network shipped with the code, through the same runner the media service uses, on 6 s of a dev-set
 * song it was not trained on. Its SDR must stay at the floor its model card states: a broken export, a
 * changed STFT or a runner bug shows up here as a drop, not as a silent loss of quality for users.
 */
const MODELS = join(__dirname, '..', '..', '..', 'models');
const card = JSON.parse(readFileSync(join(MODELS, 'stemdeck-masknet.json'), 'utf8')) as {
  regression: Record<RegressionEngine, Record<StemType, number>>;
};

describe('the bundled separation model', () => {
  let clip: RegressionClip;

  beforeAll(async () => {
    clip = await loadRegressionClip();
  });

  // 'network' is the model alone (hybrid's windows without the fast engine's share), so a change in the
  // fast engine cannot hide a broken model.
  it.each(REGRESSION_ENGINES)('%s: every stem at or above its floor, stems adding up to the mix', async (engine) => {
    const { stems, sdr } = await separateRegressionClip(clip, engine);
    for (const stem of STEM_TYPES) expect({ stem, sdr: sdr[stem] >= card.regression[engine][stem] }).toEqual({ stem, sdr: true });
    // The masks of a cell add up to one: the four stems rebuild the mix.
    let residual = 0;
    for (const channel of ['left', 'right'] as const) {
      for (let t = 0; t < clip.mixture[channel].length; t++) {
        const rebuilt = STEM_TYPES.reduce((total, stem) => total + stems[stem][channel][t], 0);
        residual = Math.max(residual, Math.abs(clip.mixture[channel][t] - rebuilt));
      }
    }
    expect(residual).toBeLessThan(1e-3);
  });

  it('is the model the engines load by default', () => {
    expect(bundledEngineSpec('hybrid').modelPath).toBe(BUNDLED_MODEL_PATH);
    expect(BUNDLED_MODEL_PATH).toBe(join(MODELS, 'stemdeck-masknet.onnx'));
  });

  it('keeps floors a margin under the measurement, rounded down to a tenth', () => {
    expect(regressionFloor(11.47)).toBe(10.4);
    expect(regressionFloor(3.1)).toBe(2.1);
    expect(regressionFloor(0.95)).toBe(-0.1);
    expect(regressionFloor(6, 0.5)).toBe(5.5);
  });
});
