import type { VocalPitchParameters } from './vocal-pitch';

/**
 * Every tuning constant of the fast engine, stated in seconds and hertz and converted to frames and bins
 * for the track's sample rate, so 44.1 kHz, 48 kHz or anything else separates the same way.
 */
export interface FastParameters {
  sampleRate: number;
  fftSize: number;
  hop: number;
  /** Owned frames per segment and context frames analysed on each side (see segments.ts). */
  segmentFrames: number;
  marginFrames: number;
  /** Bins whose masks are estimated; higher ones repeat the top one (see masks.ts). */
  maskBins: number;
  /** Remedian stages of the horizontal (along time) and vertical (along frequency) HPSS kernels. */
  harmonicStages: number[];
  percussiveStages: number[];
  /** (Hz, weight) anchors of the percussive estimate's weight against the harmonic one (harmonic-share.ts). */
  percussiveWeights: [number, number][];
  /** Below this bin, the percussive estimate comes from the narrower low-band vertical kernel. */
  lowBandBins: number;
  lowPercussiveStages: number[];
  /** Bins below this carry infrasound/DC only; they are left to 'other'. */
  subsonicBins: number;
  /** Bins up to which bass gets full weight, and up to which its weight fades to zero. */
  bassFullBin: number;
  bassEndBin: number;
  /** Centre index at which the vocal weight starts to rise from 0, and where it reaches 1. */
  vocalCentreFrom: number;
  vocalCentreTo: number;
  /** The ramp moves down by how far the segment's vocal sits below this centre index, at most by the maximum (see vocalCentreShift). */
  vocalCentreReference: number;
  vocalCentreMaxShift: number;
  /** Fraction of the comb that vocals may claim inside the bass band. */
  bassVocalShare: number;
  vocalPitch: VocalPitchParameters;
  /**
   * Vocal reverb model: power decay per frame, and the bounds of how much of the vocal estimate feeds the
   * tail (fitted to each segment, see fittedReverbGain).
   */
  reverbDecay: number;
  reverbGainMin: number;
  reverbGainMax: number;
  /** Voicing: share of the centred harmonic energy the comb must capture for a frame to count as sung. */
  voicingFrom: number;
  voicingTo: number;
}

/**
 * The constants not derived from the sample rate (weights, shares, ratios, and the kernel stages, counted in
 * frames and bins): what a tuning may change. A key given as undefined would blank the engine's own value.
 */
export const FAST_TUNING_KEYS = [
  'harmonicStages',
  'percussiveStages',
  'percussiveWeights',
  'lowPercussiveStages',
  'vocalCentreFrom',
  'vocalCentreTo',
  'vocalCentreReference',
  'vocalCentreMaxShift',
  'bassVocalShare',
  'reverbGainMin',
  'reverbGainMax',
  'voicingFrom',
  'voicingTo',
] as const satisfies readonly (keyof FastParameters)[];
export type FastTuning = Partial<Pick<FastParameters, (typeof FAST_TUNING_KEYS)[number]>>;

/**
 * STFT length ≈ 93 ms (4096 at 44.1/48 kHz): 11 Hz bins resolve bass partials from one another and from
 * the kick's broad low bump, which matters more for SDR than drum-attack sharpness. 50 % overlap: masks at
 * 75 % overlap score no better here and cost twice the transforms.
 */
const WINDOW_SECONDS = 0.093;
const SEGMENT_SECONDS = 12;
const MARGIN_SECONDS = 0.5;
const MASK_TOP_HZ = 8000;
const LOW_BAND_HZ = 300;
const SUBSONIC_HZ = 15;
const BASS_FULL_HZ = 180;
const BASS_END_HZ = 500;
/** Power time constant of the vocal reverb tail. */
const REVERB_SECONDS = 0.2;

export function fastParameters(sampleRate: number): FastParameters {
  const fftSize = 2 ** Math.round(Math.log2(WINDOW_SECONDS * sampleRate));
  const hop = fftSize / 2;
  const framesPerSecond = sampleRate / hop;
  const binHz = sampleRate / fftSize;
  return {
    sampleRate,
    fftSize,
    hop,
    segmentFrames: Math.round(SEGMENT_SECONDS * framesPerSecond),
    marginFrames: Math.round(MARGIN_SECONDS * framesPerSecond),
    maskBins: Math.round(MASK_TOP_HZ / binHz) + 1,
    // ≈ 0.4 s along time, ≈ 290 Hz along frequency.
    harmonicStages: [3, 3],
    percussiveStages: [3, 3, 3],
    // Re-tuned (with vocalCentreReference and bassVocalShare) by bench/src/fast-tuning.bench.ts on the wide
    // training family, never on a held-out set; were 1.4, 0.7, 0.7 at 150, 400 and 1000 Hz.
    percussiveWeights: [
      [150, 1.6],
      [400, 0.3],
      [1000, 0.5],
      [3000, 1],
      [6000, 16],
    ],
    lowBandBins: Math.round(LOW_BAND_HZ / binHz),
    // ≈ 55 Hz: a partial or two of a bass line, where ≈ 290 Hz would span its whole comb.
    lowPercussiveStages: [5],
    subsonicBins: Math.ceil(SUBSONIC_HZ / binHz),
    bassFullBin: Math.round(BASS_FULL_HZ / binHz),
    bassEndBin: Math.round(BASS_END_HZ / binHz),
    vocalCentreFrom: 0.6,
    vocalCentreTo: 1,
    // A centred lead vocal measures 0.87–0.95 here on the development songs (its partials, voiced frames); 0.8
    // (was 0.9) moves the ramp only for wider voices, which the wide family has more of than development.
    vocalCentreReference: 0.8,
    vocalCentreMaxShift: 0.5,
    // Was 0.3: the wide family's voices reach lower.
    bassVocalShare: 0.4,
    vocalPitch: {
      binHz,
      minHz: 80,
      maxHz: 1100,
      stepsPerSemitone: 6,
      harmonics: 12,
      salienceMaxHz: 5000,
      stepCost: 0.2 / 6,
      maxStep: 6,
      leapCost: 1,
      toothBins: 22 / binHz,
      toothSpread: 0.006,
      combMaxHz: 8000,
    },
    reverbDecay: Math.exp(-1 / (REVERB_SECONDS * framesPerSecond)),
    // The fixed gain this replaced was 0.03, fitted to the development songs' light vocal room.
    reverbGainMin: 0.01,
    reverbGainMax: 0.15,
    // A sung frame's comb holds ≈ 70 % or more of the centred harmonic energy; one over a chord far less.
    voicingFrom: 0.3,
    voicingTo: 0.7,
  };
}
