import type { BandEnergies } from './bands';

/**
 * Onset strength: how much new energy starts in each frame (spectral flux).
 *
 * Each band's power is compressed as log(1 + γ·amplitude / reference amplitude) — close to decibels for loud
 * bands yet flat near silence, so that noise in empty bands does not flicker — and the frame's onset strength is
 * the mean over bands of the increase since the previous frame (decreases count as 0: notes ending are not
 * onsets). Working per band makes a quiet hi-hat or a bass note count, not only the loudest instrument.
 *
 * Four more views of the same rises serve the choice of the metrical level (tempo-octave.ts):
 * - `low`: the flux of the bands below 150 Hz (kick drum, bass notes); the meter detection reads it too;
 * - `snare`: the flux of the bands from 150 Hz to 2.5 kHz with each band's rises divided by that band's own
 *   mean rise (the body of a snare or clap, chord and vocal attacks; hi-hats mostly lie above);
 * - `high`: the same per-band normalised rises of the bands from 2.5 kHz up (hi-hats, ride, shakers, the click
 *   of a pick or a brush): how densely the cymbals subdivide the beat;
 * - `balanced`: every band's normalised rises averaged: each band counts equally whatever its level, so a thin
 *   kick counts as much as a loud snare.
 */
export interface OnsetEnvelope {
  framesPerSecond: number;
  strength: Float32Array;
  low: Float32Array;
  snare: Float32Array;
  balanced: Float32Array;
  high: Float32Array;
}

const COMPRESSION_GAIN = 100;
const LOW_BAND_LIMIT_HZ = 150;
const HIGH_BAND_FROM_HZ = 2500;

export function onsetEnvelope(bands: BandEnergies): OnsetEnvelope {
  const bandCount = bands.bandCentres.length;
  const { frameCount, energies } = bands;
  const strength = new Float32Array(frameCount);
  const low = new Float32Array(frameCount);
  const snare = new Float32Array(frameCount);
  const balanced = new Float32Array(frameCount);
  const high = new Float32Array(frameCount);
  const envelope = { framesPerSecond: bands.framesPerSecond, strength, low, snare, balanced, high };
  const reference = meanEnergy(energies);
  if (reference <= 0) return envelope;
  const lowBands = bands.bandCentres.filter((centre) => centre < LOW_BAND_LIMIT_HZ).length;
  const firstHighBand = bands.bandCentres.filter((centre) => centre < HIGH_BAND_FROM_HZ).length;
  const highBands = bandCount - firstHighBand;
  // Rises per frame and band (frame-major), kept for the per-band normalisation: 4 bytes per band per frame.
  const rises = new Float32Array(frameCount * bandCount);
  const meanRise = new Float64Array(bandCount);
  const previous = new Float64Array(bandCount);
  for (let frame = 0; frame < frameCount; frame++) {
    let total = 0;
    let lowTotal = 0;
    for (let band = 0; band < bandCount; band++) {
      const level = Math.log1p(COMPRESSION_GAIN * Math.sqrt(energies[frame * bandCount + band] / reference));
      const rise = frame > 0 && level > previous[band] ? level - previous[band] : 0;
      rises[frame * bandCount + band] = rise;
      meanRise[band] += rise / frameCount;
      total += rise;
      if (band < lowBands) lowTotal += rise;
      previous[band] = level;
    }
    strength[frame] = total / bandCount;
    low[frame] = lowBands > 0 ? lowTotal / lowBands : 0;
  }
  for (let frame = 0; frame < frameCount; frame++) {
    let all = 0;
    let mid = 0;
    let top = 0;
    for (let band = 0; band < bandCount; band++) {
      const relative = meanRise[band] > 0 ? rises[frame * bandCount + band] / meanRise[band] : 0;
      all += relative;
      if (band >= firstHighBand) top += relative;
      else if (band >= lowBands) mid += relative;
    }
    balanced[frame] = all / bandCount;
    snare[frame] = firstHighBand > lowBands ? mid / (firstHighBand - lowBands) : 0;
    high[frame] = highBands > 0 ? top / highBands : 0;
  }
  return envelope;
}

function meanEnergy(energies: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < energies.length; i++) sum += energies[i];
  return energies.length > 0 ? sum / energies.length : 0;
}
