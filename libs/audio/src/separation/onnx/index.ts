// The `hybrid` and `quality` engines: HTDemucs-class ONNX waveform models run window by window.
export { DEMUCS_SOURCE_ORDER, OnnxSeparator, type OnnxEngineName, type OnnxSeparatorSpec } from './onnx-separator';
export { describeModel, OnnxModelError, type ModelDescription, type ModelValueInfo } from './model-session';
export {
  expectedTestSeparation,
  TEST_MODEL_SOURCES,
  writeTestSeparationModel,
  type TestSeparationModelOptions,
} from './fixture/test-separation-model';
