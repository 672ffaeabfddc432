/**
 * Learns a noise profile, the noise's power per frequency bin, from the quietest frames of a recording: every frame's
 * power spectrum is offered with a loudness score, the quietest `keep` are held (a max-heap on the score, so memory
 * is `keep` spectra however long the input), and the profile is their mean per bin. On a stem with pauses those
 * frames are the noise alone, whatever its colour; averaging hundreds of them leaves a smooth estimate. Which frames
 * to offer (not digital silence, not the padded edges) and how to score them is the caller's choice.
 */
/** Per-bin statistics of the frames a profile was learned from (see NoiseProfileLearner.moments). */
export interface NoiseMoments {
  mean: Float32Array;
  variation: Float32Array;
  persistence: Float32Array;
}

export class NoiseProfileLearner {
  private readonly spectra: Float32Array;
  /** The spectrum of the frame before each held one (for the frame-to-frame change, see moments). */
  private readonly previous: Float32Array;
  private readonly scores: Float64Array;
  /** Heap of slot numbers ordered by their score, loudest on top. */
  private readonly heap: Int32Array;
  private held = 0;
  private offered = 0;

  constructor(
    readonly bins: number,
    readonly keep: number,
  ) {
    if (!(keep >= 1)) throw new RangeError('a noise profile needs at least one frame');
    this.spectra = new Float32Array(keep * bins);
    this.previous = new Float32Array(keep * bins);
    this.scores = new Float64Array(keep);
    this.heap = new Int32Array(keep);
  }

  /** Frames offered so far (quiet or not). */
  get frames(): number {
    return this.offered;
  }

  /** Frames the profile is the mean of. */
  get heldFrames(): number {
    return this.held;
  }

  /**
   * Offers one frame's power spectrum (`bins` values from `offset`) with its loudness score (lower is quieter) and
   * the spectrum of the frame before it (`before`, from `beforeOffset`).
   */
  offer(power: Float32Array, offset: number, score: number, before: Float32Array, beforeOffset: number): void {
    this.offered++;
    let slot: number;
    if (this.held < this.keep) {
      slot = this.held;
      this.heap[this.held++] = slot;
      this.scores[slot] = score;
      this.siftUp(this.held - 1);
    } else {
      slot = this.heap[0];
      if (score >= this.scores[slot]) return;
      this.scores[slot] = score;
      this.siftDown(0);
    }
    this.spectra.set(power.subarray(offset, offset + this.bins), slot * this.bins);
    this.previous.set(before.subarray(beforeOffset, beforeOffset + this.bins), slot * this.bins);
  }

  /** Mean power per bin of the frames held (zeros before any frame was offered). */
  profile(): Float32Array {
    return this.moments().mean;
  }

  /**
   * Per bin, over the frames held:
   *  - `mean`: the mean power (the profile);
   *  - `variation`: its coefficient of variation (standard deviation over mean; 0 where the mean is 0). Noise's power
   *    in a bin varies from frame to frame as much as its mean (CV ≈ 1, less when channels add independent noise);
   *    a held tone hardly varies (CV ≈ 0); music that comes and goes varies more;
   *  - `persistence`: the correlation of its power with the previous frame's (0 where either does not vary). Noise
   *    is drawn afresh each frame, its neighbours related only through the samples they share (≈ 0.4 at 50 %
   *    overlap); music's soft frames continue the frames before them (a decay, a held note: near 1).
   */
  moments(): NoiseMoments {
    const { bins, held } = this;
    const sum = new Float64Array(bins);
    const squares = new Float64Array(bins);
    const sumBefore = new Float64Array(bins);
    const squaresBefore = new Float64Array(bins);
    const products = new Float64Array(bins);
    for (let slot = 0; slot < held; slot++) {
      const base = slot * bins;
      for (let k = 0; k < bins; k++) {
        const p = this.spectra[base + k];
        const q = this.previous[base + k];
        sum[k] += p;
        squares[k] += p * p;
        sumBefore[k] += q;
        squaresBefore[k] += q * q;
        products[k] += p * q;
      }
    }
    const mean = new Float32Array(bins);
    const variation = new Float32Array(bins);
    const persistence = new Float32Array(bins);
    for (let k = 0; k < bins && held > 0; k++) {
      const m = sum[k] / held;
      const mBefore = sumBefore[k] / held;
      const variance = Math.max(0, squares[k] / held - m * m);
      const varianceBefore = Math.max(0, squaresBefore[k] / held - mBefore * mBefore);
      mean[k] = m;
      variation[k] = m > 0 ? Math.sqrt(variance) / m : 0;
      const scale = Math.sqrt(variance * varianceBefore);
      persistence[k] = scale > 0 ? (products[k] / held - m * mBefore) / scale : 0;
    }
    return { mean, variation, persistence };
  }

  private siftUp(i: number): void {
    const { heap, scores } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (scores[heap[parent]] >= scores[heap[i]]) return;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const { heap, scores } = this;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < this.held && scores[heap[left]] > scores[heap[largest]]) largest = left;
      if (right < this.held && scores[heap[right]] > scores[heap[largest]]) largest = right;
      if (largest === i) return;
      [heap[largest], heap[i]] = [heap[i], heap[largest]];
      i = largest;
    }
  }
}
