export {
  enhanceAudioFile,
  ENHANCE_TARGET_LUFS,
  ENHANCE_TRUE_PEAK_MAX_DBTP,
  SPEECH_CHAIN,
  type EnhanceAudioFileOptions,
  type EnhanceResult,
  type Enhancements,
} from './enhance';
export { siSdr } from './si-sdr';
