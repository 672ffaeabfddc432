/** @jest-environment ./libs/audio/src/separation/onnx/testing/ort-test-environment.js */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAudio } from '../../io/ffmpeg';
import { STEM_TYPES, type StemType, type StereoAudio } from '../../types';
import { globalSdr } from '../metrics';
import { BUNDLED_MODEL_PATH, bundledEngineSpec } from './bundled-model';
import { OnnxSeparator } from './onnx-separator';

/**
 * The network shipped with the code, through the same runner the media service uses, on 6 s of a dev-set
 * song it was not trained on. Its SDR must stay at the floor its model card states: a broken export, a
 * changed STFT or a runner bug shows up here as a drop, not as a silent loss of quality for users.
 */
const MODELS = join(__dirname, '..', '..', '..', 'models');
const card = JSON.parse(readFileSync(join(MODELS, 'stemdeck-masknet.json'), 'utf8')) as {
  regression: Record<'network' | 'hybrid' | 'quality', Record<StemType, number>>;
};

describe('the bundled separation model', () => {
  let truth: Record<StemType, StereoAudio>;
  let mixture: StereoAudio;

  beforeAll(async () => {
    truth = {} as Record<StemType, StereoAudio>;
    for (const stem of STEM_TYPES) truth[stem] = await decodeAudio(join(MODELS, 'regression', `${stem}.flac`));
    const frames = truth.vocals.left.length;
    const sum = (channel: 'left' | 'right') => Float32Array.from({ length: frames }, (_, i) => STEM_TYPES.reduce((total, stem) => total + truth[stem][channel][i], 0));
    mixture = { sampleRate: truth.vocals.sampleRate, left: sum('left'), right: sum('right') };
  });

  // 'network' is the model alone (hybrid's windows without the fast engine's share), so a change in the
  // fast engine cannot hide a broken model.
  it.each(['network', 'hybrid', 'quality'] as const)('%s: every stem at or above its floor, stems adding up to the mix', async (engine) => {
    const spec = engine === 'network' ? { ...bundledEngineSpec('hybrid'), fastBlend: undefined } : bundledEngineSpec(engine);
    const separator = new OnnxSeparator(engine === 'network' ? 'hybrid' : engine, { ...spec, threads: 1 });
    try {
      const stems = await separator.separate(mixture);
      const scores = Object.fromEntries(STEM_TYPES.map((stem) => [stem, globalSdr(truth[stem], stems[stem])])) as Record<StemType, number>;
      for (const stem of STEM_TYPES) expect({ stem, sdr: scores[stem] >= card.regression[engine][stem] }).toEqual({ stem, sdr: true });
      // The masks of a cell add up to one: the four stems rebuild the mix.
      let residual = 0;
      for (const channel of ['left', 'right'] as const) {
        for (let t = 0; t < mixture[channel].length; t++) {
          const rebuilt = STEM_TYPES.reduce((total, stem) => total + stems[stem][channel][t], 0);
          residual = Math.max(residual, Math.abs(mixture[channel][t] - rebuilt));
        }
      }
      expect(residual).toBeLessThan(1e-3);
    } finally {
      await separator.release();
    }
  });

  it('is the model the engines load by default', () => {
    expect(bundledEngineSpec('hybrid').modelPath).toBe(BUNDLED_MODEL_PATH);
    expect(BUNDLED_MODEL_PATH).toBe(join(MODELS, 'stemdeck-masknet.onnx'));
  });
});
