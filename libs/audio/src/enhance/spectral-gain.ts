/** Settings of the decision-directed gain rule (see SpectralGain). */
export interface SpectralGainOptions {
  /** Weight of the previous frame's clean estimate in the a-priori SNR (0.98 in Ephraim–Malah; lower follows onsets faster). */
  smoothing: number;
  /** Floor of the a-priori SNR, dB: the smallest ratio the rule believes, which bounds musical noise. */
  minPrioriSnrDb: number;
  /** Floor of the gain, dB: how far a bin of pure noise is pulled down. */
  gainFloorDb: number;
  /** The noise profile is multiplied by this before use (> 1 removes more noise and more of the quiet signal). */
  overSubtraction: number;
  /** 'wiener': ξ/(1+ξ); 'lsa': Ephraim–Malah log-spectral amplitude estimator (softer on weak speech). */
  rule: 'wiener' | 'lsa';
}

export const DEFAULT_GAIN_OPTIONS: SpectralGainOptions = {
  // Ephraim–Malah's 0.98 was per ~10 ms hop; the denoiser hops ~23 ms, and 0.98² keeps the same time constant.
  smoothing: 0.96,
  minPrioriSnrDb: -25,
  gainFloorDb: -25,
  overSubtraction: 1,
  rule: 'wiener',
};

/** Noise power below which a bin counts as noiseless (keeps the ratios finite on digital silence). */
const TINY_POWER = 1e-20;

/**
 * Per-bin spectral gain from a noise profile by the decision-directed rule (Ephraim & Malah 1984): the a-posteriori
 * SNR γ = |Y|²/N of the frame is blended with the previous frame's clean-power estimate into the a-priori SNR
 * ξ = α·Â²/N + (1 − α)·max(γ − 1, 0), and the gain follows from ξ. The recursive blend is what keeps the residual
 * noise from turning into "musical" tones: a lone noise peak raises γ for one frame but ξ barely moves. One instance
 * follows one stream of frames in order (it keeps the previous frame's estimate).
 */
export class SpectralGain {
  readonly bins: number;
  private readonly noise: Float32Array;
  private readonly previousClean: Float32Array;
  private readonly minPriori: number;
  private readonly floor: number;
  private started = false;

  constructor(
    noiseProfile: Float32Array,
    readonly options: SpectralGainOptions = DEFAULT_GAIN_OPTIONS,
  ) {
    this.bins = noiseProfile.length;
    this.noise = noiseProfile.map((n) => Math.max(TINY_POWER, n * options.overSubtraction));
    this.previousClean = new Float32Array(this.bins);
    this.minPriori = Math.pow(10, options.minPrioriSnrDb / 10);
    this.floor = Math.pow(10, options.gainFloorDb / 20);
  }

  /** Gains for one frame: `power` (bins values from `offset`) is the frame's power spectrum; gains land in `gains` from `gainOffset`. */
  apply(power: Float32Array, offset: number, gains: Float32Array, gainOffset: number): void {
    const { bins, noise, previousClean, minPriori, floor } = this;
    const alpha = this.started ? this.options.smoothing : 0;
    const lsa = this.options.rule === 'lsa';
    for (let k = 0; k < bins; k++) {
      const observed = power[offset + k];
      const n = noise[k];
      const posteriori = Math.min(observed / n, 1e6);
      let priori = alpha * (previousClean[k] / n) + (1 - alpha) * Math.max(posteriori - 1, 0);
      if (priori < minPriori) priori = minPriori;
      let gain = priori / (1 + priori);
      if (lsa) {
        const v = gain * posteriori;
        gain = Math.min(1, gain * Math.exp(0.5 * expIntegral(v)));
      }
      if (gain < floor) gain = floor;
      gains[gainOffset + k] = gain;
      previousClean[k] = gain * gain * observed;
    }
    this.started = true;
  }
}

/** E1(x), the exponential integral, for x > 0 (series below 1, a rational approximation above; |error| < 1e-7 relative). */
export function expIntegral(x: number): number {
  if (x <= 0) return 50;
  if (x < 1) {
    // Abramowitz & Stegun 5.1.53.
    return -Math.log(x) - 0.57721566 + x * (0.99999193 + x * (-0.24991055 + x * (0.05519968 + x * (-0.00976004 + x * 0.00107857))));
  }
  if (x > 50) return 0;
  // Abramowitz & Stegun 5.1.56.
  const num = x * x * x * x + 8.5733287401 * x * x * x + 18.059016973 * x * x + 8.6347608925 * x + 0.2677737343;
  const den = x * x * x * x + 9.5733223454 * x * x * x + 25.6329561486 * x * x + 21.0996530827 * x + 3.9584969228;
  return (Math.exp(-x) / x) * (num / den);
}
