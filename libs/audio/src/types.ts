/** Planar stereo PCM, float samples in [-1, 1]. Mono sources are duplicated into both channels. */
export interface StereoAudio {
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
}

export const STEM_TYPES = ['vocals', 'drums', 'bass', 'other'] as const;
export type StemType = (typeof STEM_TYPES)[number];

export const ENGINE_NAMES = ['fast', 'hybrid', 'quality'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

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
