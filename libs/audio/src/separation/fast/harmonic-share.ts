import { remedianFilter, remedianSpan } from '../../dsp';
import type { FastParameters } from './parameters';

/** Grids for the harmonic/percussive split, reused from segment to segment. */
export class HarmonicShareWorkspace {
  readonly harmonic: Float32Array;
  readonly percussive: Float32Array;
  readonly scratch: Float32Array;
  readonly lowBins: number;
  readonly lowPower: Float32Array;
  readonly lowPercussive: Float32Array;
  readonly lowScratch: Float32Array;
  /** Per bin: the weight of the percussive estimate against the harmonic one (see percussiveWeight). */
  readonly percussiveWeight: Float32Array;

  constructor(maxFrames: number, bins: number, params: FastParameters) {
    const grid = (width: number) => new Float32Array(maxFrames * width);
    this.harmonic = grid(bins);
    this.percussive = grid(bins);
    this.scratch = grid(bins);
    // Low-band bins plus the vertical kernel's reach, so bins below the split never see the grid's edge.
    this.lowBins = Math.min(bins, params.lowBandBins + Math.floor(remedianSpan(params.lowPercussiveStages) / 2));
    this.lowPower = grid(this.lowBins);
    this.lowPercussive = grid(this.lowBins);
    this.lowScratch = grid(this.lowBins);
    this.percussiveWeight = Float32Array.from({ length: bins }, (_, bin) => percussiveWeight(bin, params));
  }
}

/**
 * The weight of the percussive estimate against the harmonic one at a bin, interpolated linearly between
 * the (Hz, weight) anchors of `percussiveWeights` and held flat beyond the first and last.
 */
function percussiveWeight(bin: number, params: FastParameters): number {
  const hz = (bin * params.sampleRate) / params.fftSize;
  const anchors = params.percussiveWeights;
  if (hz <= anchors[0][0]) return anchors[0][1];
  for (let k = 1; k < anchors.length; k++) {
    const [toHz, to] = anchors[k];
    if (hz <= toHz) {
      const [fromHz, from] = anchors[k - 1];
      return from + ((to - from) * (hz - fromHz)) / (toHz - fromHz);
    }
  }
  return anchors[anchors.length - 1][1];
}

/**
 * Harmonic/percussive split by median filtering (FitzGerald 2010) of the power: a median along time keeps
 * what is steady (partials), one along frequency keeps what is broadband in an instant (hits). Returns the
 * harmonic share Hᵉ / (Hᵉ + (w·P)ᵉ) per cell (in `work.harmonic`), a Wiener-style soft mask; 1 − share is
 * percussive. The exponent e = 1.5 on these powers sharpens the split a little (plain power ratios score
 * lower here). The weight w depends on frequency: above ≈ 3 kHz a steady hi-hat or shaker pattern looks
 * steady to the horizontal median while pitched instruments have little energy there, so percussive
 * evidence counts up to 16× by 6 kHz; it counts 1.6× below ≈ 150 Hz, where the kick's energy is, and 0.3×
 * at 400 Hz rising to 0.5× at 1 kHz, where voices and chords crowd (first tuned on the development set, the
 * low three anchors re-tuned on the wide training family: parameters.ts).
 *
 * Below `lowBandBins` the vertical kernel is much narrower (≈ 55 Hz instead of ≈ 290 Hz): there a bass
 * line's partials sit a few bins apart and a wide kernel would call their comb "broadband". The low band
 * is copied into a compact grid so that kernel only touches the bins it decides.
 */
export function harmonicShare(
  power: Float32Array,
  frames: number,
  bins: number,
  params: FastParameters,
  work: HarmonicShareWorkspace,
): Float32Array {
  const { harmonic, percussive, scratch, lowBins, lowPower, lowPercussive, lowScratch } = work;
  remedianFilter(power, harmonic, scratch, frames, bins, 'frames', params.harmonicStages);
  remedianFilter(power, percussive, scratch, frames, bins, 'bins', params.percussiveStages);

  for (let frame = 0; frame < frames; frame++) {
    lowPower.set(power.subarray(frame * bins, frame * bins + lowBins), frame * lowBins);
  }
  remedianFilter(lowPower, lowPercussive, lowScratch, frames, lowBins, 'bins', params.lowPercussiveStages);
  const decided = Math.min(params.lowBandBins, lowBins);
  for (let frame = 0; frame < frames; frame++) {
    percussive.set(lowPercussive.subarray(frame * lowBins, frame * lowBins + decided), frame * bins);
  }

  const weight = work.percussiveWeight;
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    for (let bin = 0; bin < bins; bin++) {
      // Hᵉ / (Hᵉ + (w·P)ᵉ) = 1 / (1 + rᵉ) with r = w·P / H and e = 1.5 (r·√r: no pow() per cell).
      const ratio = (weight[bin] * percussive[row + bin]) / (harmonic[row + bin] + 1e-30);
      harmonic[row + bin] = 1 / (1 + ratio * Math.sqrt(ratio));
    }
  }
  return harmonic;
}
