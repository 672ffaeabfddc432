import type { BandEnergies } from './bands';
import { powerSpectrum } from './autocorrelation';
import { clamp01, decibels, mean, nextPowerOfTwo, quantile } from './math';
import type { OnsetEnvelope } from './onset';
import type { Partial } from './partials';

/**
 * Measurable descriptors of a track's sound, the inputs of the Spotify-style features (features.ts). Each is a
 * plain physical or statistical measurement; what they are taken as evidence of is argued in features.ts.
 */
export interface TimbreDescriptors {
  /** Centroid of the long-term spectrum (Hz, analysis band up to ~5 kHz): brightness. */
  spectralCentroidHz: number;
  /** Mean over sounding frames of the spectral flatness of the band spectrum (0 tonal … 1 white noise). */
  spectralFlatness: number;
  /** Share of the long-term power below 150 Hz (kick drum, bass). */
  lowEndShare: number;
  /** Onsets (onset-strength peaks clearly above the local level) per second. */
  onsetRate: number;
  /** Share of sounding frames whose band spectrum changed by under 1.5 dB RMS over the last 0.1 s. */
  spectralSteadiness: number;
  /** Modulation of the 250–3500 Hz envelope at syllable rates (2.5–8 Hz), as a share of its 0.25–20 Hz modulation. */
  syllabicModulation: number;
  /** Quietest-decile level of the bands above 1 kHz relative to their median (dB, ≤ 0): a noise floor between notes. */
  ambientFloorDb: number;
  /** Share of 150–2000 Hz partial amplitude that is smeared (pitch moving within a window: vibrato, glides). */
  unstablePartialShare: number;
}

const SILENT_FRAME_DB = -60;

export function describeTimbre(bands: BandEnergies, onsets: OnsetEnvelope, partials: Partial[]): TimbreDescriptors {
  const sounding = soundingFrames(bands);
  return {
    spectralCentroidHz: spectralCentroid(bands),
    spectralFlatness: mean(sounding.map((frame) => flatnessOf(bands, frame))),
    lowEndShare: powerShare(bands, (centre) => centre < 150),
    onsetRate: onsetRate(onsets),
    spectralSteadiness: steadiness(bands, sounding),
    syllabicModulation: syllabicModulation(bands),
    ambientFloorDb: ambientFloor(bands, sounding),
    unstablePartialShare: unstableShare(partials),
  };
}

function bandPower(bands: BandEnergies, frame: number, band: number): number {
  return bands.energies[frame * bands.bandCentres.length + band] * bands.bandWidths[band];
}

function framePower(bands: BandEnergies, frame: number): number {
  let power = 0;
  for (let band = 0; band < bands.bandCentres.length; band++) power += bandPower(bands, frame, band);
  return power;
}

/** Frames within 60 dB of the loudest one. */
function soundingFrames(bands: BandEnergies): number[] {
  const powers = Array.from({ length: bands.frameCount }, (_, frame) => framePower(bands, frame));
  const loudest = powers.reduce((max, power) => Math.max(max, power), 0);
  if (loudest <= 0) return [];
  const floor = loudest * 10 ** (SILENT_FRAME_DB / 10);
  return powers.flatMap((power, frame) => (power > floor ? [frame] : []));
}

function longTermSpectrum(bands: BandEnergies): number[] {
  const spectrum = new Array<number>(bands.bandCentres.length).fill(0);
  for (let frame = 0; frame < bands.frameCount; frame++) {
    for (let band = 0; band < spectrum.length; band++) spectrum[band] += bandPower(bands, frame, band);
  }
  return spectrum;
}

function spectralCentroid(bands: BandEnergies): number {
  const spectrum = longTermSpectrum(bands);
  const total = spectrum.reduce((sum, power) => sum + power, 0);
  return total > 0 ? spectrum.reduce((sum, power, band) => sum + power * bands.bandCentres[band], 0) / total : 0;
}

function powerShare(bands: BandEnergies, inside: (centreHz: number) => boolean): number {
  const spectrum = longTermSpectrum(bands);
  const total = spectrum.reduce((sum, power) => sum + power, 0);
  const part = spectrum.reduce((sum, power, band) => sum + (inside(bands.bandCentres[band]) ? power : 0), 0);
  return total > 0 ? part / total : 0;
}

/** Geometric over arithmetic mean of the frame's power spectral density across bands. */
function flatnessOf(bands: BandEnergies, frame: number): number {
  const count = bands.bandCentres.length;
  let logSum = 0;
  let sum = 0;
  for (let band = 0; band < count; band++) {
    const density = bands.energies[frame * count + band] + 1e-20;
    logSum += Math.log(density);
    sum += density;
  }
  return Math.exp(logSum / count) / (sum / count);
}

/** Peaks of the onset strength that rise above 1.5 × the track's mean strength, at least 50 ms apart. */
function onsetRate(onsets: OnsetEnvelope): number {
  const { strength, framesPerSecond } = onsets;
  const threshold = 1.5 * mean(strength);
  const minGap = Math.round(0.05 * framesPerSecond);
  let count = 0;
  let last = -Infinity;
  for (let i = 1; i + 1 < strength.length; i++) {
    const peak = strength[i] > threshold && strength[i] >= strength[i - 1] && strength[i] > strength[i + 1];
    if (peak && i - last >= minGap) {
      count++;
      last = i;
    }
  }
  return threshold > 0 ? count / (strength.length / framesPerSecond) : 0;
}

function steadiness(bands: BandEnergies, sounding: number[]): number {
  const lag = Math.max(1, Math.round(0.1 * bands.framesPerSecond));
  const count = bands.bandCentres.length;
  const candidates = sounding.filter((frame) => frame >= lag);
  if (candidates.length === 0) return 0;
  let steady = 0;
  for (const frame of candidates) {
    let squared = 0;
    for (let band = 0; band < count; band++) {
      const now = bands.energies[frame * count + band] + 1e-20;
      const before = bands.energies[(frame - lag) * count + band] + 1e-20;
      squared += decibels(now / before) ** 2;
    }
    if (Math.sqrt(squared / count) < 1.5) steady++;
  }
  return steady / candidates.length;
}

/** Power spectrum of the vocal-band log-energy envelope: the 2.5–8 Hz share of its 0.25–20 Hz modulation. */
function syllabicModulation(bands: BandEnergies): number {
  const selected = bands.bandCentres.flatMap((centre, band) => (centre >= 250 && centre <= 3500 ? [band] : []));
  const envelope = new Float64Array(bands.frameCount);
  for (let frame = 0; frame < bands.frameCount; frame++) {
    let power = 0;
    for (const band of selected) power += bandPower(bands, frame, band);
    envelope[frame] = Math.log10(power + 1e-12);
  }
  const average = mean(envelope);
  const size = nextPowerOfTwo(envelope.length);
  const power = powerSpectrum(envelope.map((value) => value - average), size);
  const hzPerBin = bands.framesPerSecond / size;
  let syllabic = 0;
  let total = 0;
  for (let bin = 1; bin < size / 2; bin++) {
    const hz = bin * hzPerBin;
    if (hz < 0.25 || hz > 20) continue;
    total += power[bin];
    if (hz >= 2.5 && hz <= 8) syllabic += power[bin];
  }
  return total > 0 ? syllabic / total : 0;
}

function ambientFloor(bands: BandEnergies, sounding: number[]): number {
  if (sounding.length === 0) return -60;
  const count = bands.bandCentres.length;
  const floors = bands.bandCentres.flatMap((centre, band) => {
    if (centre < 1000) return [];
    const levels = sounding.map((frame) => bands.energies[frame * count + band] + 1e-20);
    return [Math.max(-60, decibels(quantile(levels, 0.1) / quantile(levels, 0.5)))];
  });
  return floors.length > 0 ? mean(floors) : -60;
}

function unstableShare(partials: Partial[]): number {
  let smeared = 0;
  let total = 0;
  for (const { frequency, amplitude, smear } of partials) {
    if (frequency < 150 || frequency > 2000) continue;
    total += amplitude;
    if (smear > 0.3) smeared += amplitude;
  }
  return total > 0 ? clamp01(smeared / total) : 0;
}
