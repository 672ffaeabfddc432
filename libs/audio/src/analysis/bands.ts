import { forEachPowerSpectrum, frameCount, type Framing } from './spectrum';
import { nearestPowerOfTwo } from './math';
import type { MonoSignal } from './mono-signal';

/**
 * Power in third-octave bands, frame by frame: the one short-time analysis that onset detection (tempo, meter)
 * and the timbre descriptors share. Windows of ~46 ms every ~11.6 ms (512 / 128 samples at 11025 Hz, 21.5 Hz
 * bins): short enough to place drum hits to a frame at 86 frames per second, fine enough in frequency to keep
 * the kick drum's band apart from the bass guitar's upper partials.
 */
export interface BandEnergies {
  framesPerSecond: number;
  frameCount: number;
  /** Centre frequency (Hz) of each band, ascending. */
  bandCentres: number[];
  /** Width (Hz) of each band: energy × width is proportional to the band's total power. */
  bandWidths: number[];
  /** frame-major: energies[frame * bandCount + band], mean power of the band's FFT bins. */
  energies: Float32Array;
}

const LOWEST_BAND_HZ = 40;
const BANDS_PER_OCTAVE = 3;

export function bandEnergies(signal: MonoSignal): BandEnergies {
  const frameSize = nearestPowerOfTwo(0.046 * signal.sampleRate);
  const framing: Framing = { frameSize, hop: frameSize / 4 };
  const binHz = signal.sampleRate / frameSize;
  const bands = thirdOctaveBins(binHz, frameSize / 2);
  const frames = frameCount(signal.samples.length, framing);
  const energies = new Float32Array(frames * bands.length);
  forEachPowerSpectrum(signal.samples, framing, (frame, power) => {
    const row = frame * bands.length;
    for (let band = 0; band < bands.length; band++) {
      const { firstBin, endBin } = bands[band];
      let sum = 0;
      for (let bin = firstBin; bin < endBin; bin++) sum += power[bin];
      energies[row + band] = sum / (endBin - firstBin);
    }
  });
  return {
    framesPerSecond: signal.sampleRate / framing.hop,
    frameCount: frames,
    bandCentres: bands.map((band) => band.centreHz),
    bandWidths: bands.map((band) => (band.endBin - band.firstBin) * binHz),
    energies,
  };
}

interface BandBins {
  centreHz: number;
  firstBin: number;
  endBin: number;
}

/** Third-octave bands from 40 Hz to Nyquist; a band narrower than an FFT bin is merged into the next one. */
function thirdOctaveBins(binHz: number, nyquistBin: number): BandBins[] {
  const bands: BandBins[] = [];
  let firstBin = Math.max(1, Math.round(LOWEST_BAND_HZ / binHz));
  for (let k = 1; firstBin < nyquistBin; k++) {
    const upperHz = LOWEST_BAND_HZ * 2 ** (k / BANDS_PER_OCTAVE);
    const endBin = Math.min(nyquistBin, Math.round(upperHz / binHz));
    if (endBin <= firstBin) continue;
    bands.push({ centreHz: Math.sqrt(firstBin * endBin) * binHz, firstBin, endBin });
    firstBin = endBin;
  }
  return bands;
}
