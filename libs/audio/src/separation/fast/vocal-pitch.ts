/**
 * Lead-vocal pitch and the harmonic comb built on it.
 *
 * The vocal is monophonic, so knowing its f0 in each frame tells which bins can hold it: those near
 * multiples of f0. Instruments of the same loudness and direction but other pitches fall between the
 * teeth and are left to 'other' — the one cue that tells a centred voice from a centred keyboard.
 *
 * Pitch: harmonic summation (Klapuri 2006) on the vocal evidence (centred, harmonic, above the bass
 * crossover; see masks.ts): the salience of a candidate f0 is Σ_h |E(h·f0)| / √h over its first
 * harmonics, taking the largest of the three bins around each. Candidates are spaced a sixth of a semitone
 * apart, fine enough to follow vibrato so the comb's teeth can stay narrow. The track through the frames is
 * the Viterbi path maximising the summed salience (normalised per frame) minus a cost per step (0.2 per
 * semitone, glides up to a semitone per frame), with a fixed price for leaping anywhere — so a voice
 * that glides or steps is followed, and an octave error in one frame does not win over its neighbours.
 */
export interface VocalPitchParameters {
  /** Bin width in Hz. */
  binHz: number;
  minHz: number;
  maxHz: number;
  /** Candidate f0 spacing: this many per semitone. */
  stepsPerSemitone: number;
  /** Harmonics summed per candidate (those below `salienceMaxHz`). */
  harmonics: number;
  salienceMaxHz: number;
  /** Viterbi: cost per candidate step, largest step of a glide (in candidates), and the price of a leap. */
  stepCost: number;
  maxStep: number;
  leapCost: number;
  /** Comb teeth: width (bins) at the fundamental, extra width per bin of centre frequency (vibrato), top. */
  toothBins: number;
  toothSpread: number;
  combMaxHz: number;
}

/** Per-thread buffers and the harmonic bin tables of every candidate, built once per sample rate. */
export class VocalPitchTracker {
  private readonly candidateHz: Float64Array;
  /** Bins of candidate k's harmonics: harmonicBins[harmonicStart[k] .. harmonicStart[k + 1]). */
  private readonly harmonicStart: Int32Array;
  private readonly harmonicBins: Int32Array;
  private readonly harmonicWeights: Float32Array;
  private readonly salienceBins: number;
  private readonly widened: Float32Array;
  private readonly salience: Float32Array;
  private score: Float64Array;
  private nextScore: Float64Array;
  private readonly backPointers: Int16Array;
  readonly f0: Float32Array;

  constructor(
    private readonly params: VocalPitchParameters,
    maxFrames: number,
  ) {
    const { binHz, minHz, maxHz, stepsPerSemitone, harmonics, salienceMaxHz } = params;
    const count = Math.floor(12 * stepsPerSemitone * Math.log2(maxHz / minHz)) + 1;
    this.candidateHz = Float64Array.from({ length: count }, (_, k) => minHz * 2 ** (k / (12 * stepsPerSemitone)));
    const starts: number[] = [];
    const bins: number[] = [];
    const weights: number[] = [];
    for (const f0 of this.candidateHz) {
      starts.push(bins.length);
      for (let h = 1; h <= harmonics && h * f0 < salienceMaxHz; h++) {
        bins.push(Math.round((h * f0) / binHz));
        weights.push(1 / Math.sqrt(h));
      }
    }
    starts.push(bins.length);
    this.harmonicStart = Int32Array.from(starts);
    this.harmonicBins = Int32Array.from(bins);
    this.harmonicWeights = Float32Array.from(weights);
    this.salienceBins = Math.ceil(salienceMaxHz / binHz) + 2;
    this.widened = new Float32Array(this.salienceBins);
    this.salience = new Float32Array(count);
    this.score = new Float64Array(count);
    this.nextScore = new Float64Array(count);
    this.backPointers = new Int16Array(maxFrames * count);
    this.f0 = new Float32Array(maxFrames);
  }

  /** Fills f0[0 .. frames) with the vocal pitch track of `evidence` (magnitudes, frame-major). */
  track(evidence: Float32Array, frames: number, bins: number): Float32Array {
    const count = this.candidateHz.length;
    const { stepCost, maxStep, leapCost } = this.params;
    for (let frame = 0; frame < frames; frame++) {
      this.frameSalience(evidence, frame * bins, bins);
      let peak = 1e-30;
      for (let k = 0; k < count; k++) peak = Math.max(peak, this.salience[k]);
      let best = 0;
      for (let k = 1; k < count; k++) if (this.score[k] > this.score[best]) best = k;
      const leapFrom = this.score[best] - leapCost;
      for (let k = 0; k < count; k++) {
        let from = best;
        let value = frame === 0 ? 0 : leapFrom;
        if (frame > 0) {
          for (let q = Math.max(0, k - maxStep); q <= Math.min(count - 1, k + maxStep); q++) {
            const candidate = this.score[q] - stepCost * Math.abs(q - k);
            if (candidate > value) {
              value = candidate;
              from = q;
            }
          }
        }
        this.nextScore[k] = value + this.salience[k] / peak;
        this.backPointers[frame * count + k] = from;
      }
      [this.score, this.nextScore] = [this.nextScore, this.score];
    }
    let k = 0;
    for (let q = 1; q < count; q++) if (this.score[q] > this.score[k]) k = q;
    for (let frame = frames - 1; frame >= 0; frame--) {
      this.f0[frame] = this.candidateHz[k];
      k = this.backPointers[frame * count + k];
    }
    this.score.fill(0);
    return this.f0;
  }

  /** salience[k] for one frame; `widened` holds the evidence's running max over three bins. */
  private frameSalience(evidence: Float32Array, row: number, bins: number): void {
    const { widened, salience, harmonicStart, harmonicBins, harmonicWeights } = this;
    const last = Math.min(this.salienceBins, bins) - 1;
    for (let bin = 0; bin <= last; bin++) {
      const below = evidence[row + Math.max(0, bin - 1)];
      const above = evidence[row + Math.min(last, bin + 1)];
      widened[bin] = Math.max(below, evidence[row + bin], above);
    }
    for (let k = 0; k < salience.length; k++) {
      let sum = 0;
      for (let j = harmonicStart[k]; j < harmonicStart[k + 1]; j++) sum += harmonicWeights[j] * widened[harmonicBins[j]];
      salience[k] = sum;
    }
  }
}

/**
 * Writes the comb of each frame's f0 into `comb` (0..1 per cell, frame-major): a bump around every
 * harmonic below combMaxHz, wider for higher harmonics, whose vibrato sweeps more bins. The bump is
 * (1 − x²)² over ±2.2 widths: within a few percent of a Gaussian of that width, without exp().
 */
export function writeHarmonicComb(f0: Float32Array, frames: number, bins: number, params: VocalPitchParameters, comb: Float32Array): void {
  const { binHz, toothBins, toothSpread, combMaxHz } = params;
  comb.fill(0, 0, frames * bins);
  for (let frame = 0; frame < frames; frame++) {
    const row = frame * bins;
    const fundamental = f0[frame] / binHz;
    for (let centre = fundamental; centre * binHz < combMaxHz; centre += fundamental) {
      const reach = 2.2 * (toothBins + toothSpread * centre);
      const from = Math.max(0, Math.ceil(centre - reach));
      const to = Math.min(bins - 1, Math.floor(centre + reach));
      for (let bin = from; bin <= to; bin++) {
        const x = (bin - centre) / reach;
        const bump = (1 - x * x) * (1 - x * x);
        if (bump > comb[row + bin]) comb[row + bin] = bump;
      }
    }
  }
}
