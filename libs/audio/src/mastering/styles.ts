/**
 * The mastering styles and intensities: what each one does to the sound, as ffmpeg filter chains.
 *
 * Every style runs the same stages; the numbers differ:
 *   1. tone: EQ with ffmpeg's biquads (`highpass` for the sub-sonic rumble, `bass`/`treble` shelves for the tilt,
 *      `equalizer` bells), scaled by the intensity (Light 0.75×, Medium 1×, Heavy 1.25× the style's gains);
 *   2. width: `stereotools` side level (stereo inputs only);
 *   3. dynamics: `acompressor` as a bus compressor, fed at a fixed loudness (COMPRESSOR_INPUT_LUFS) so that its
 *      threshold means the same for a quiet and a loud upload; ratio grows with the intensity;
 *   4. limiting and loudness: `alimiter` run at 4× the sample rate (so that it sees the peaks between samples: at the
 *      base rate its output overshoots the ceiling by up to 1.5 dB of true peak), driven by the gain that lands the
 *      target loudness (see master.ts); the limiter's release and ceiling are the style's (smooth holds its peaks
 *      0.8 dB lower: denser, and a lower crest factor than punchy at the same loudness).
 */

// The product's names for them are proto's vocabulary (the API, the jobs service and the panel use the same).
export {
  MASTERING_INTENSITIES,
  MASTERING_INTENSITY_NAMES,
  MASTERING_STYLES,
  type MasteringIntensity,
  type MasteringStyle,
} from '@stemdeck/proto/vocabulary';
import { MASTERING_STYLES, type MasteringIntensity, type MasteringStyle } from '@stemdeck/proto/vocabulary';
/** Integrated loudness each intensity lands on, LUFS. */
export const MASTERING_TARGET_LUFS: Record<MasteringIntensity, number> = { 1: -16, 2: -14, 3: -11 };
/** How far from the target a master may land, LU. */
export const MASTERING_LOUDNESS_TOLERANCE_LU = 0.5;
/** The highest true peak a master may have, dBTP. */
export const MASTERING_TRUE_PEAK_MAX_DBTP = -1;
/** The limiter's ceiling (sample peak at 4× the rate), below the true-peak maximum by what resampling back adds. */
export const LIMITER_CEILING_DBFS = -1.5;
/** The loudness the compressor is fed at, LUFS; the styles' thresholds are set against it. */
export const COMPRESSOR_INPUT_LUFS = -18;

interface EqBand {
  kind: 'bass' | 'treble' | 'bell';
  hz: number;
  /** Gain at Medium, dB. */
  db: number;
  /** Q of a bell (shelves use ffmpeg's default slope). */
  q?: number;
}

export interface StyleSpec {
  description: string;
  highpassHz: number;
  eq: EqBand[];
  /** Side level of the mid/side signal: > 1 widens, < 1 narrows. */
  width: number;
  compressor: {
    /** Threshold, dBFS, for a signal at COMPRESSOR_INPUT_LUFS. */
    thresholdDb: number;
    /** Ratio at Light, Medium, Heavy. */
    ratio: [number, number, number];
    attackMs: number;
    releaseMs: number;
    /** acompressor's detection: rms (smooth, slower to react) or peak (catches transients). */
    detection: 'rms' | 'peak';
  };
  limiterReleaseMs: number;
  /** The limiter's ceiling, dBFS (sample peak at 4× the rate): LIMITER_CEILING_DBFS unless the style holds peaks lower. */
  limiterCeilingDb?: number;
}

export const STYLE_SPECS: Record<MasteringStyle, StyleSpec> = {
  balanced: {
    description: 'Neutral: a light smile (low and high shelves +1 dB), gentle glue compression, a touch wider.',
    highpassHz: 30,
    eq: [
      { kind: 'bass', hz: 90, db: 1 },
      { kind: 'treble', hz: 9000, db: 1 },
    ],
    width: 1.05,
    compressor: { thresholdDb: -20, ratio: [1.5, 2, 2.5], attackMs: 20, releaseMs: 200, detection: 'rms' },
    limiterReleaseMs: 60,
  },
  warm: {
    description: 'Darker and fuller: low shelf +3 dB at 180 Hz, high shelf −3 dB from 5 kHz, slow compression, a little narrower.',
    highpassHz: 25,
    eq: [
      { kind: 'bass', hz: 180, db: 3 },
      { kind: 'treble', hz: 5000, db: -3 },
    ],
    width: 0.95,
    compressor: { thresholdDb: -22, ratio: [1.6, 2, 2.4], attackMs: 30, releaseMs: 300, detection: 'rms' },
    limiterReleaseMs: 80,
  },
  punchy: {
    description:
      'Transients forward: kick shelf +2 dB at 70 Hz, mud cut −2.5 dB at 350 Hz, attack +2 dB at 4 kHz; a slow-attack, ' +
      'fast-release compressor that lets the hits through and lifts the body between them.',
    highpassHz: 35,
    eq: [
      { kind: 'bass', hz: 70, db: 2 },
      { kind: 'bell', hz: 350, db: -2.5, q: 1 },
      { kind: 'bell', hz: 4000, db: 2, q: 1 },
    ],
    width: 1,
    compressor: { thresholdDb: -18, ratio: [2, 3, 4], attackMs: 40, releaseMs: 80, detection: 'rms' },
    limiterReleaseMs: 40,
  },
  open: {
    description: 'Airy and wide: high shelf +3.5 dB from 7 kHz, low shelf −1 dB at 120 Hz, light compression, side +25 %.',
    highpassHz: 35,
    eq: [
      { kind: 'bass', hz: 120, db: -1 },
      { kind: 'treble', hz: 7000, db: 3.5 },
    ],
    width: 1.25,
    compressor: { thresholdDb: -20, ratio: [1.4, 1.8, 2.2], attackMs: 25, releaseMs: 150, detection: 'rms' },
    limiterReleaseMs: 60,
  },
  smooth: {
    description:
      'Rounded: presence dip −2.5 dB at 3.2 kHz, high shelf −2 dB from 9 kHz, low-mid shelf +1 dB; a fast-attack peak ' +
      'compressor that rounds the transients off, a slow limiter release and peaks held 0.8 dB lower (denser).',
    highpassHz: 30,
    eq: [
      { kind: 'bell', hz: 3200, db: -2.5, q: 0.8 },
      { kind: 'treble', hz: 9000, db: -2 },
      { kind: 'bass', hz: 200, db: 1 },
    ],
    width: 1.05,
    compressor: { thresholdDb: -26, ratio: [2, 2.5, 3], attackMs: 2, releaseMs: 400, detection: 'peak' },
    limiterReleaseMs: 120,
    limiterCeilingDb: -2.3,
  },
};

const EQ_SCALE: Record<MasteringIntensity, number> = { 1: 0.75, 2: 1, 3: 1.25 };

const num = (value: number) => Number(value.toFixed(4)).toString();
const linear = (db: number) => num(10 ** (db / 20));

/**
 * The style's tone, width and compression stages as one ffmpeg filter chain, for audio at `inputLufs` (the chain
 * first brings it to COMPRESSOR_INPUT_LUFS).
 */
export function styleChain(style: MasteringStyle, intensity: MasteringIntensity, options: { inputLufs: number; channels: number }): string {
  const spec = STYLE_SPECS[style];
  const scale = EQ_SCALE[intensity];
  const filters = [`volume=${num(COMPRESSOR_INPUT_LUFS - options.inputLufs)}dB`, `highpass=f=${spec.highpassHz}`];
  for (const band of spec.eq) {
    const gain = num(band.db * scale);
    if (band.kind === 'bell') filters.push(`equalizer=f=${band.hz}:t=q:w=${band.q ?? 1}:g=${gain}`);
    else filters.push(`${band.kind}=f=${band.hz}:g=${gain}`);
  }
  if (options.channels === 2 && spec.width !== 1) filters.push(`stereotools=slev=${num(spec.width)}`);
  const c = spec.compressor;
  filters.push(
    `acompressor=threshold=${linear(c.thresholdDb)}:ratio=${c.ratio[intensity - 1]}:attack=${c.attackMs}:release=${c.releaseMs}` +
      `:knee=2.8:detection=${c.detection}:link=maximum`,
  );
  return filters.join(',');
}

/**
 * Gain into the limiter and the limiter itself (alimiter: 5 ms look-ahead, delay compensated, no auto-level).
 * `oversample` runs it at 4× the rate (2× from 88.2 kHz up) with soxr, as the master does; the gain search runs it at
 * the base rate, a quarter of the cost, and reads 0–0.2 LU louder than the master will be (master.ts aims for that).
 */
export function limiterChain(
  style: MasteringStyle,
  options: { gainDb: number; sampleRate: number; oversample: boolean; ceilingDb?: number },
): string {
  const limiter =
    `alimiter=limit=${linear(options.ceilingDb ?? styleCeiling(style))}:attack=5:release=${STYLE_SPECS[style].limiterReleaseMs}` +
    `:level=disabled:latency=enabled`;
  const filters = [`volume=${num(options.gainDb)}dB`];
  if (options.oversample) {
    const factor = options.sampleRate >= 88200 ? 2 : 4;
    filters.push(`aresample=${options.sampleRate * factor}:resampler=soxr`, limiter, `aresample=${options.sampleRate}:resampler=soxr`);
  } else {
    filters.push(limiter);
  }
  return filters.join(',');
}

/** The style's limiter ceiling, dBFS. */
export function styleCeiling(style: MasteringStyle): number {
  return STYLE_SPECS[style].limiterCeilingDb ?? LIMITER_CEILING_DBFS;
}

export function isMasteringStyle(value: unknown): value is MasteringStyle {
  return typeof value === 'string' && (MASTERING_STYLES as readonly string[]).includes(value);
}

export function isMasteringIntensity(value: unknown): value is MasteringIntensity {
  return value === 1 || value === 2 || value === 3;
}
