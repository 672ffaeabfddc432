export { FastSeparator, createFastSeparator, type FastSeparatorOptions } from './fast-separator';
export { separateFastStream, type StreamSeparationOptions, type StreamSeparationResult } from './stream-separator';
export { splitFileFast, type SplitFileOptions } from './split-file';
export { FAST_TUNING_KEYS, fastParameters, type FastParameters, type FastTuning } from './parameters';
