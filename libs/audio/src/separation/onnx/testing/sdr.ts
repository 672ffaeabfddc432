/** Signal-to-distortion ratio in dB of `estimate` against `reference` over [from, to), one channel (specs only). */
export function sdr(reference: ArrayLike<number>, estimate: ArrayLike<number>, from = 0, to = reference.length): number {
  let signal = 0;
  let error = 0;
  for (let i = from; i < to; i++) {
    signal += reference[i] ** 2;
    error += (reference[i] - estimate[i]) ** 2;
  }
  return 10 * Math.log10(signal / error);
}
