import { join } from 'node:path';
import type { OnnxEngineName, OnnxSeparatorSpec } from './onnx-separator';

/**
 * Stemdeck's own separation network, trained by tools/separation-model on the project's synthetic
 * multitracks and committed with the code: every checkout has the hybrid and quality engines, with no
 * download. (From dist/separation/onnx or src/separation/onnx, the package's models/ folder.)
 */
export const BUNDLED_MODEL_PATH = join(__dirname, '..', '..', '..', 'models', 'stemdeck-masknet.onnx');

/**
 * Share of the fast (DSP) engine's stems in each model window's stems. Chosen on the development set
 * (whole-set grid 0…1 in steps of 0.1, the network at step 2025 and the fast engine of that day: model
 * alone 6.36 dB mean, fast alone 5.53, this blend 6.75 with each stem blended; 'other' then takes the rest so the stems add up to the mix); the held-out set played no part.
 * Checked again for stage 2's network with bench/src/blend-choice.bench.ts (development set only): the best grid
 * point (drums 0.3) scores 6.70 against these shares' 6.69, so they were kept; with stage 3's network and the re-tuned
 * fast engine the best point and these shares both score 6.75, with stage 4's both 6.80, with stage 5's both 6.86, with stage 6's
 * both 6.87, with stage 7's both 6.91, with stage 8's both 6.94; with stage 9's the best point (vocals 0.3) and these
 * shares both 6.94 to the hundredth, so they were kept; with stage 10's the best point (vocals 0.3) and these shares
 * both 6.95, with stage 11's both 6.96, with stage 12's these shares are the best point (6.91); with stage 13's the
 * best point (drums 0.3, bass 0.4) and these shares both 6.81 to the hundredth, so they stay; with stage 14's the best
 * point (drums 0.3) and these shares both 6.85 to the hundredth, so they stay; with stage 16's the same point and these
 * shares both 6.87, so they stay; with stage 17's these shares are the best point (6.86).
 */
const FAST_BLEND = { vocals: 0.4, drums: 0.2, bass: 0.3, other: 0.4 } as const;

/**
 * The two model engines on the bundled network, both blended with the fast engine (model + DSP fusion).
 * hybrid: one pass, windows overlapping by a quarter. quality: windows overlapping by half and each window
 * also separated with its channels swapped, the two masks averaged (test-time augmentation) — about three
 * times the network's work of hybrid.
 */
export function bundledEngineSpec(engine: OnnxEngineName, modelPath: string = BUNDLED_MODEL_PATH): OnnxSeparatorSpec {
  return engine === 'hybrid'
    ? { modelPath, segmentSeconds: 10, overlap: 0.25, fastBlend: FAST_BLEND }
    : { modelPath, segmentSeconds: 10, overlap: 0.5, channelSwap: true, fastBlend: FAST_BLEND };
}
