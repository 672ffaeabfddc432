import { join } from 'node:path';
import { decodeAudio } from '../../io/ffmpeg';
import { STEM_TYPES, type StemSet, type StemType, type StereoAudio } from '../../types';
import { globalSdr } from '../metrics';
import { bundledEngineSpec } from './bundled-model';
import { OnnxSeparator } from './onnx-separator';

/**
 * The regression clip committed beside the bundled network (6 s of a development song it was not trained on,
 * one FLAC per stem) and how the model card's floors are measured on it. The unit test and the floors script
 * (bench/src/regression-floors.bench.ts) both score through here, so the floors are measured exactly the way
 * the test checks them.
 */
const MODELS = join(__dirname, '..', '..', '..', 'models');

/** What the card's floors are kept per: 'network' is the model alone (hybrid's windows with no fast-engine share). */
export const REGRESSION_ENGINES = ['network', 'hybrid', 'quality'] as const;
export type RegressionEngine = (typeof REGRESSION_ENGINES)[number];

export interface RegressionClip {
  truth: StemSet;
  mixture: StereoAudio;
}

export async function loadRegressionClip(): Promise<RegressionClip> {
  const truth = {} as StemSet;
  for (const stem of STEM_TYPES) truth[stem] = await decodeAudio(join(MODELS, 'regression', `${stem}.flac`));
  const frames = truth.vocals.left.length;
  const sum = (channel: 'left' | 'right') => Float32Array.from({ length: frames }, (_, i) => STEM_TYPES.reduce((total, stem) => total + truth[stem][channel][i], 0));
  return { truth, mixture: { sampleRate: truth.vocals.sampleRate, left: sum('left'), right: sum('right') } };
}

/** Separates the clip with one engine on the bundled network (one thread, as in CI) and scores each stem. */
export async function separateRegressionClip(clip: RegressionClip, engine: RegressionEngine): Promise<{ stems: StemSet; sdr: Record<StemType, number> }> {
  const spec = engine === 'network' ? { ...bundledEngineSpec('hybrid'), fastBlend: undefined } : bundledEngineSpec(engine);
  const separator = new OnnxSeparator(engine === 'network' ? 'hybrid' : engine, { ...spec, threads: 1 });
  try {
    const stems = await separator.separate(clip.mixture);
    const sdr = Object.fromEntries(STEM_TYPES.map((stem) => [stem, globalSdr(clip.truth[stem], stems[stem])])) as Record<StemType, number>;
    return { stems, sdr };
  } finally {
    await separator.release();
  }
}

/** The card's floor for a measured SDR: `margin` dB under it, rounded down to a tenth. */
export function regressionFloor(sdr: number, margin = 1): number {
  return Math.floor((sdr - margin) * 10) / 10;
}
