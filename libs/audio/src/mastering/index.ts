export { masterAudioFile, meetsTargets, type MasterAudioFileOptions, type MasteringResult } from './master';
export { mixAudioFiles, type MixAudioFilesOptions, type MixResult, type MixStem } from './mix';
export { measureCharacter, measureR128, scanSamples, type CharacterStats, type LoudnessStats, type MeasureOptions } from './measure';
export { CLIP_LEVEL, runFfmpeg, startFfmpeg, type FfmpegProcess, type FfmpegRun } from './tool';
export {
  COMPRESSOR_INPUT_LUFS,
  isMasteringIntensity,
  isMasteringStyle,
  LIMITER_CEILING_DBFS,
  MASTERING_INTENSITIES,
  MASTERING_INTENSITY_NAMES,
  MASTERING_LOUDNESS_TOLERANCE_LU,
  MASTERING_STYLES,
  MASTERING_TARGET_LUFS,
  MASTERING_TRUE_PEAK_MAX_DBTP,
  STYLE_SPECS,
  type MasteringIntensity,
  type MasteringStyle,
  type StyleSpec,
} from './styles';
