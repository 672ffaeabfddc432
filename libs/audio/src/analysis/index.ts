export { analyzeAudio, type AudioAnalysis } from './analyze';
export type { SpotifyFeatures } from './features';
export { KEY_NAMES } from './key';
