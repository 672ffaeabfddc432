import type { LoudnessStats } from '@stemdeck/audio';
import type { LoudnessFigures } from '@stemdeck/proto';

/** ffmpeg's ebur128 reading (libs/audio) as a job's figures. */
export const loudnessFigures = (stats: LoudnessStats): LoudnessFigures => ({
  integratedLufs: stats.integratedLufs,
  lra: stats.loudnessRangeLu,
  truePeakDbtp: stats.truePeakDbtp,
});
