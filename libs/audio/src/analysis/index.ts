export { analyzeAudio, ANALYSIS_EXCERPT_SECONDS, StreamingAnalysis, type AudioAnalysis } from './analyze';
export type { SpotifyFeatures } from './features';
export { KEY_NAMES } from './key';
