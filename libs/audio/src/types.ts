/** Planar stereo PCM, float samples in [-1, 1]. Mono sources are duplicated into both channels. */
export interface StereoAudio {
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
}

// The product's vocabulary is proto's; re-exported so the engines' users keep importing it from here.
export { ENGINE_NAMES, STEM_TYPES, type EngineName, type StemType } from '@stemdeck/proto/vocabulary';
import type { EngineName, StemType } from '@stemdeck/proto/vocabulary';

/** The four stems, each at the mixture's sample rate and length. */
export type StemSet = Record<StemType, StereoAudio>;

export interface SeparationProgress {
  /** 0..1 of the whole job. */
  fraction: number;
}

export interface Separator {
  readonly engine: EngineName;
  separate(mixture: StereoAudio, onProgress?: (progress: SeparationProgress) => void): Promise<StemSet>;
}
