// The `hybrid` and `quality` engines: ONNX models run window by window (our own mask network, or an HTDemucs-class waveform model).
export { DEMUCS_SOURCE_ORDER, OnnxSeparator, type OnnxEngineName, type OnnxSeparatorSpec, type OnnxStreamOptions } from './onnx-separator';
export { OnnxSeparationStream } from './onnx-stream';
export { mixStatistics, type MixStatistics } from './mix-normalization';
export { describeModel, OnnxModelError, type ModelDescription, type ModelValueInfo } from './model-session';
export { MASK_MODEL_FFT_SIZE, MASK_MODEL_HOP, MASK_MODEL_SAMPLE_RATE, MASK_MODEL_SOURCES } from './mask-model';
export { BUNDLED_MODEL_PATH, bundledEngineSpec } from './bundled-model';
