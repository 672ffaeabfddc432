import { remedianFilter, remedianSpan } from '../../dsp';
import type { FastParameters } from './parameters';

/** Grids for the harmonic/percussive split, reused from segment to segment. */
export class HarmonicShareWorkspace {
  readonly harmonic: Float32Array;
  readonly percussive: Float32Array;
  readonly scratch: Float32Array;
  readonly lowBins: number;
  readonly lowPower: Float32Array;
  readonly lowHarmonic: Float32Array;
  readonly lowPercussive: Float32Array;
  readonly lowScratch: Float32Array;
  /** Per bin: the weight of the percussive estimate against the harmonic one (see highBandPercussiveBias). */
  readonly percussiveBias: Float32Array;

  constructor(maxFrames: number, bins: number, params: FastParameters) {
    const grid = (width: number) => new Float32Array(maxFrames * width);
    this.harmonic = grid(bins);
    this.percussive = grid(bins);
    this.scratch = grid(bins);
    // Low-band bins plus the vertical kernel's reach, so bins below the split never see the grid's edge.
    this.lowBins = Math.min(bins, params.lowBandBins + Math.floor(remedianSpan(params.lowPercussiveStages) / 2));
    this.lowPower = grid(this.lowBins);
    this.lowHarmonic = grid(this.lowBins);
    this.lowPercussive = grid(this.lowBins);
    this.lowScratch = grid(this.lowBins);
    this.percussiveBias = Float32Array.from({ length: bins }, (_, bin) => highBandPercussiveBias(bin, params));
  }
}

/**
 * 1 up to percussiveBiasFromBin, rising linearly to `percussiveBias` at percussiveBiasToBin. High up, a
 * steady hi-hat or shaker pattern looks "steady" to the horizontal median, while pitched instruments have
 * little energy there: weighting the percussive estimate up gives those bins to the drums.
 */
function highBandPercussiveBias(bin: number, params: FastParameters): number {
  const { percussiveBiasFromBin: from, percussiveBiasToBin: to, percussiveBias: bias } = params;
  return bin <= from ? 1 : bin >= to ? bias : 1 + ((bias - 1) * (bin - from)) / (to - from);
}

/**
 * Harmonic/percussive split by median filtering (FitzGerald 2010) of the power: a median along time keeps
 * what is steady (partials), one along frequency keeps what is broadband in an instant (hits). Returns the
 * harmonic share H / (H + b·P) per cell (in `work.harmonic`), a Wiener-style soft mask; 1 − share is
 * percussive. The bias b is 1 except in the high band (see highBandPercussiveBias).
 *
 * Below `lowBandBins` the kernels are shorter in time and narrower in frequency: there the question is a
 * kick's short, wide bump against a bass note's long, narrow partials, and the full-band kernels would call
 * a four-on-the-floor kick "steady". The low band is copied into a compact grid so those kernels only
 * touch the bins they decide.
 */
export function harmonicShare(
  power: Float32Array,
  frames: number,
  bins: number,
  params: FastParameters,
  work: HarmonicShareWorkspace,
): Float32Array {
  const { harmonic, percussive, scratch, lowBins, lowPower, lowHarmonic, lowPercussive, lowScratch } = work;
  remedianFilter(power, harmonic, scratch, frames, bins, 'frames', params.harmonicStages);
  remedianFilter(power, percussive, scratch, frames, bins, 'bins', params.percussiveStages);

  for (let frame = 0; frame < frames; frame++) {
    lowPower.set(power.subarray(frame * bins, frame * bins + lowBins), frame * lowBins);
  }
  remedianFilter(lowPower, lowHarmonic, lowScratch, frames, lowBins, 'frames', params.lowHarmonicStages);
  remedianFilter(lowPower, lowPercussive, lowScratch, frames, lowBins, 'bins', params.lowPercussiveStages);
  const decided = Math.min(params.lowBandBins, lowBins);
  for (let frame = 0; frame < frames; frame++) {
    harmonic.set(lowHarmonic.subarray(frame * lowBins, frame * lowBins + decided), frame * bins);
    percussive.set(lowPercussive.subarray(frame * lowBins, frame * lowBins + decided), frame * bins);
  }

  const bias = work.percussiveBias;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      const h = harmonic[row + bin];
      harmonic[row + bin] = h / (h + bias[bin] * percussive[row + bin] + 1e-30);
    }
  }
  return harmonic;
}
