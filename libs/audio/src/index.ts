export * from './types';
export * from './io/wav';
export * from './io/ffmpeg';
export * from './dsp';
export * from './analysis';
export * from './separation/fast';
export * from './separation/onnx';
export * from './separation/metrics';
