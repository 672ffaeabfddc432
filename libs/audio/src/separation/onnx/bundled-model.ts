import { join } from 'node:path';
import type { OnnxEngineName, OnnxSeparatorSpec } from './onnx-separator';

/**
 * Stemdeck's own separation network, trained by tools/separation-model on the project's synthetic
 * multitracks and committed with the code: every checkout has the hybrid and quality engines, with no
 * download. (From dist/separation/onnx or src/separation/onnx, the package's models/ folder.)
 */
export const BUNDLED_MODEL_PATH = join(__dirname, '..', '..', '..', 'models', 'stemdeck-masknet.onnx');

/**
 * The two model engines on the bundled network. hybrid: one pass, windows overlapping by a quarter.
 * quality: windows overlapping by half and each window also separated with its channels swapped, the
 * two masks averaged (test-time augmentation) — about three times the work of hybrid.
 */
export function bundledEngineSpec(engine: OnnxEngineName, modelPath: string = BUNDLED_MODEL_PATH): OnnxSeparatorSpec {
  return engine === 'hybrid'
    ? { modelPath, segmentSeconds: 10, overlap: 0.25 }
    : { modelPath, segmentSeconds: 10, overlap: 0.5, channelSwap: true };
}
