// The `hybrid` and `quality` engines: HTDemucs-class ONNX waveform models run window by window.
export { DEMUCS_SOURCE_ORDER, OnnxSeparator, type OnnxEngineName, type OnnxSeparatorSpec, type OnnxStreamOptions } from './onnx-separator';
export { OnnxSeparationStream } from './onnx-stream';
export { mixStatistics, type MixStatistics } from './mix-normalization';
export { describeModel, OnnxModelError, type ModelDescription, type ModelValueInfo } from './model-session';
