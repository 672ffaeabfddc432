import type { StereoAudio } from '../types';

const EPSILON = 1e-12;

/**
 * Scale-invariant signal-to-distortion ratio in dB (Le Roux et al. 2019): the estimate is projected on the reference
 * (both channels as one signal, compared over the shorter length, means removed), and the projection's energy is set
 * against the residual's. Gain changes of the estimate do not move it; added noise and distortion do.
 */
export function siSdr(reference: StereoAudio, estimate: StereoAudio): number {
  const channels = ['left', 'right'] as const;
  let dot = 0;
  let refEnergy = 0;
  const means = channels.map((c) => [mean(reference[c], estimate[c].length), mean(estimate[c], reference[c].length)]);
  channels.forEach((c, k) => {
    const s = reference[c];
    const e = estimate[c];
    const n = Math.min(s.length, e.length);
    const [ms, me] = means[k];
    for (let i = 0; i < n; i++) {
      const sv = s[i] - ms;
      dot += sv * (e[i] - me);
      refEnergy += sv * sv;
    }
  });
  const alpha = dot / (refEnergy + EPSILON);
  let target = 0;
  let residual = 0;
  channels.forEach((c, k) => {
    const s = reference[c];
    const e = estimate[c];
    const n = Math.min(s.length, e.length);
    const [ms, me] = means[k];
    for (let i = 0; i < n; i++) {
      const t = alpha * (s[i] - ms);
      const r = e[i] - me - t;
      target += t * t;
      residual += r * r;
    }
  });
  return 10 * Math.log10((target + EPSILON) / (residual + EPSILON));
}

function mean(values: Float32Array, limit: number): number {
  const n = Math.min(values.length, limit);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  return n > 0 ? sum / n : 0;
}
