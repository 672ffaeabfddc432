import type { BandEnergies } from './bands';

/**
 * Onset strength: how much new energy starts in each frame (spectral flux).
 *
 * Each band's power is compressed as log(1 + γ·amplitude / reference amplitude) — close to decibels for loud
 * bands yet flat near silence, so that noise in empty bands does not flicker — and the frame's onset strength is
 * the mean over bands of the increase since the previous frame (decreases count as 0: notes ending are not
 * onsets). Working per band makes a quiet hi-hat or a bass note count, not only the loudest instrument.
 * `low` is the same flux restricted to the bands below 150 Hz (kick drum, bass): downbeats tend to be there,
 * which the meter detection uses.
 */
export interface OnsetEnvelope {
  framesPerSecond: number;
  strength: Float32Array;
  low: Float32Array;
}

const COMPRESSION_GAIN = 100;
const LOW_BAND_LIMIT_HZ = 150;

export function onsetEnvelope(bands: BandEnergies): OnsetEnvelope {
  const bandCount = bands.bandCentres.length;
  const { frameCount, energies } = bands;
  const strength = new Float32Array(frameCount);
  const low = new Float32Array(frameCount);
  const reference = meanEnergy(energies);
  if (reference <= 0) return { framesPerSecond: bands.framesPerSecond, strength, low };
  const lowBands = bands.bandCentres.filter((centre) => centre < LOW_BAND_LIMIT_HZ).length;
  const previous = new Float64Array(bandCount);
  for (let frame = 0; frame < frameCount; frame++) {
    let total = 0;
    let lowTotal = 0;
    for (let band = 0; band < bandCount; band++) {
      const level = Math.log1p(COMPRESSION_GAIN * Math.sqrt(energies[frame * bandCount + band] / reference));
      const rise = frame > 0 && level > previous[band] ? level - previous[band] : 0;
      total += rise;
      if (band < lowBands) lowTotal += rise;
      previous[band] = level;
    }
    strength[frame] = total / bandCount;
    low[frame] = lowBands > 0 ? lowTotal / lowBands : 0;
  }
  return { framesPerSecond: bands.framesPerSecond, strength, low };
}

function meanEnergy(energies: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < energies.length; i++) sum += energies[i];
  return energies.length > 0 ? sum / energies.length : 0;
}
