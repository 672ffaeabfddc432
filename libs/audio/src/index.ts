export * from './types';
export * from './io/wav';
export * from './io/ffmpeg';
