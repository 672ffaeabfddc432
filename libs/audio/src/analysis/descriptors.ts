import type { BandEnergies } from './bands';
import { powerSpectrum } from './autocorrelation';
import { clamp01, mean, nextPowerOfTwo } from './math';
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
  /** Onsets (onset-strength peaks above 1.5 × its mean) per second. */
  onsetRate: number;
  /** Typical change of the band spectrum over 0.1 s (dB RMS over bands, median over sounding frames). */
  spectralVariationDb: number;
  /** Modulation of the 250–3500 Hz envelope at syllable rates (2.5–8 Hz), as a share of its 0.25–20 Hz modulation. */
  syllabicModulation: number;
  /** Quietest-decile power above 1 kHz relative to its median (dB, ≤ 0): a noise floor between notes. */
  ambientFloorDb: number;
  /** Share of 300–1500 Hz partial amplitude that is strongly smeared (pitch moving within a window: vibrato, glides). */
  unstablePartialShare: number;
}

const SILENT_FRAME_DB = -60;
const MIN_ONSET_FLUX = 0.02;

export function describeTimbre(bands: BandEnergies, onsets: OnsetEnvelope, partials: Partial[]): TimbreDescriptors {
  const levels = bandLevelsDb(bands);
  const sounding = soundingFrames(bands);
  const spectrum = longTermSpectrum(bands);
  return {
    spectralCentroidHz: weightedShare(spectrum, bands.bandCentres),
    spectralFlatness: mean(sounding.map((frame) => flatnessOf(bands, levels, frame))),
    lowEndShare: weightedShare(spectrum, bands.bandCentres.map((centre) => (centre < 150 ? 1 : 0))),
    onsetRate: onsetRate(onsets),
    spectralVariationDb: spectralVariation(levels, bands, sounding),
    syllabicModulation: syllabicModulation(bands),
    ambientFloorDb: ambientFloor(bands, sounding, spectrum),
    unstablePartialShare: unstableShare(partials),
  };
}

/** 10·log10 of every band's power density, frame-major like the energies. */
function bandLevelsDb(bands: BandEnergies): Float32Array {
  const levels = new Float32Array(bands.energies.length);
  for (let i = 0; i < levels.length; i++) levels[i] = 10 * Math.log10(bands.energies[i] + 1e-20);
  return levels;
}

function framePower(bands: BandEnergies, frame: number): number {
  const count = bands.bandCentres.length;
  let power = 0;
  for (let band = 0; band < count; band++) power += bands.energies[frame * count + band] * bands.bandWidths[band];
  return power;
}

/** Frames within 60 dB of the loudest one. */
function soundingFrames(bands: BandEnergies): number[] {
  const powers = Array.from({ length: bands.frameCount }, (_, frame) => framePower(bands, frame));
  const loudest = powers.reduce((max, power) => Math.max(max, power), 0);
  const floor = loudest * 10 ** (SILENT_FRAME_DB / 10);
  const frames: number[] = [];
  if (loudest > 0) powers.forEach((power, frame) => power > floor && frames.push(frame));
  return frames;
}

/** Power per band summed over the track. */
function longTermSpectrum(bands: BandEnergies): number[] {
  const count = bands.bandCentres.length;
  const spectrum = new Array<number>(count).fill(0);
  for (let frame = 0; frame < bands.frameCount; frame++) {
    for (let band = 0; band < count; band++) spectrum[band] += bands.energies[frame * count + band] * bands.bandWidths[band];
  }
  return spectrum;
}

/** Σ power·value / Σ power: the centroid for values = centre frequencies, a power share for 0/1 values. */
function weightedShare(spectrum: number[], values: number[]): number {
  const total = spectrum.reduce((sum, power) => sum + power, 0);
  return total > 0 ? spectrum.reduce((sum, power, band) => sum + power * values[band], 0) / total : 0;
}

/** Geometric over arithmetic mean of the frame's power spectral density across bands. */
function flatnessOf(bands: BandEnergies, levels: Float32Array, frame: number): number {
  const count = bands.bandCentres.length;
  let levelSum = 0;
  let sum = 0;
  for (let band = 0; band < count; band++) {
    levelSum += levels[frame * count + band];
    sum += bands.energies[frame * count + band] + 1e-20;
  }
  return 10 ** (levelSum / count / 10) / (sum / count);
}

/**
 * Peaks of the onset strength above 1.5 × the track's mean strength and above MIN_ONSET_FLUX (flux is in
 * log-level units; below that it is numerical ripple of a held tone), at least 50 ms apart.
 */
function onsetRate(onsets: OnsetEnvelope): number {
  const { strength, framesPerSecond } = onsets;
  const threshold = Math.max(MIN_ONSET_FLUX, 1.5 * mean(strength));
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
  return count / (strength.length / framesPerSecond);
}

/** Median over sounding frames of the RMS (over bands) change in band level across 0.1 s, in dB. */
function spectralVariation(levels: Float32Array, bands: BandEnergies, sounding: number[]): number {
  const lag = Math.max(1, Math.round(0.1 * bands.framesPerSecond));
  const count = bands.bandCentres.length;
  const changes = sounding.flatMap((frame) => {
    if (frame < lag) return [];
    let squared = 0;
    for (let band = 0; band < count; band++) squared += (levels[frame * count + band] - levels[(frame - lag) * count + band]) ** 2;
    return [Math.sqrt(squared / count)];
  });
  return changes.length > 0 ? median(changes) : 0;
}

function median(values: number[]): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)];
}

/** Power spectrum of the vocal-band log-energy envelope: the 2.5–8 Hz share of its 0.25–20 Hz modulation. */
function syllabicModulation(bands: BandEnergies): number {
  const selected = bands.bandCentres.flatMap((centre, band) => (centre >= 250 && centre <= 3500 ? [band] : []));
  const envelope = new Float64Array(bands.frameCount);
  for (let frame = 0; frame < bands.frameCount; frame++) {
    let power = 0;
    for (const band of selected) power += bands.energies[frame * bands.bandCentres.length + band] * bands.bandWidths[band];
    envelope[frame] = Math.log10(power + 1e-12);
  }
  const average = mean(envelope);
  const size = nextPowerOfTwo(Math.max(4, envelope.length));
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

/**
 * 10th percentile over sounding frames of the summed power above 1 kHz, relative to its median (dB). Without
 * content there (under 0.5 % of the long-term power: a low tone, whose upper bands hold only window leakage)
 * there is no floor to speak of: −60.
 */
function ambientFloor(bands: BandEnergies, sounding: number[], spectrum: number[]): number {
  const high = bands.bandCentres.flatMap((centre, band) => (centre >= 1000 ? [band] : []));
  const total = spectrum.reduce((sum, power) => sum + power, 0);
  const highTotal = high.reduce((sum, band) => sum + spectrum[band], 0);
  if (sounding.length === 0 || !(highTotal > 0.005 * total)) return -60;
  const count = bands.bandCentres.length;
  const sorted = Float64Array.from(sounding, (frame) => {
    let power = 0;
    for (const band of high) power += bands.energies[frame * count + band] * bands.bandWidths[band];
    return power;
  }).sort();
  const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))];
  return Math.max(-60, 10 * Math.log10((at(0.1) + 1e-30) / (at(0.5) + 1e-30)));
}

function unstableShare(partials: Partial[]): number {
  let smeared = 0;
  let total = 0;
  for (const { frequency, amplitude, smear } of partials) {
    if (frequency < 300 || frequency > 1500) continue;
    total += amplitude;
    if (smear > 0.7) smeared += amplitude;
  }
  return total > 0 ? clamp01(smeared / total) : 0;
}
