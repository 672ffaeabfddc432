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
  }
}

/**
 * Harmonic/percussive split by median filtering (FitzGerald 2010) of the power: a median along time keeps
 * what is steady (partials), one along frequency keeps what is broadband in an instant (hits). Returns the
 * harmonic share H / (H + P) per cell (in `work.harmonic`), a Wiener-style soft mask; 1 − share is
 * percussive.
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

  for (let i = 0; i < frames * bins; i++) {
    const h = harmonic[i];
    harmonic[i] = h / (h + percussive[i] + 1e-30);
  }
  return harmonic;
}
