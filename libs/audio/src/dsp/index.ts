export * from './window';
export * from './stft';
export * from './median';
