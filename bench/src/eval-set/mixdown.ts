import { STEM_TYPES, type StemType, type StereoAudio } from '@stemdeck/audio';

export type StemSetAudio = Record<StemType, StereoAudio>;

/** RMS over the louder half of 100 ms blocks, so rests (e.g. between vocal phrases) don't skew levels. */
export function activeRms(a: StereoAudio): number {
  const block = Math.round(a.sampleRate * 0.1);
  const energies: number[] = [];
  for (let start = 0; start + block <= a.left.length; start += block) {
    let e = 0;
    for (let i = start; i < start + block; i++) e += a.left[i] * a.left[i] + a.right[i] * a.right[i];
    energies.push(e / (2 * block));
  }
  energies.sort((x, y) => y - x);
  const loud = energies.slice(0, Math.max(1, Math.ceil(energies.length / 2)));
  return Math.sqrt(loud.reduce((s, e) => s + e, 0) / loud.length);
}

export function peak(a: StereoAudio): number {
  let p = 0;
  for (let i = 0; i < a.left.length; i++) p = Math.max(p, Math.abs(a.left[i]), Math.abs(a.right[i]));
  return p;
}

/** Linear fade over the last `seconds`, so the cut at the clip's end doesn't click. */
export function fadeOut(a: StereoAudio, seconds: number): void {
  const n = Math.min(a.left.length, Math.round(seconds * a.sampleRate));
  const from = a.left.length - n;
  for (let i = 0; i < n; i++) {
    const g = 1 - (i + 1) / n;
    a.left[from + i] *= g;
    a.right[from + i] *= g;
  }
}

/**
 * Balances the stems to the given active-RMS levels (dB, relative), then applies one common
 * gain so the mixture peaks at `peakDbfs`. The returned stems are the written ground truth and
 * the mixture is their exact float32 sample sum.
 */
export function mixdown(stems: StemSetAudio, levelsDb: Record<StemType, number>, peakDbfs: number): { stems: StemSetAudio; mixture: StereoAudio; peakDbfs: number } {
  const { sampleRate } = stems.vocals;
  const frames = stems.vocals.left.length;
  const balance = {} as Record<StemType, number>;
  for (const stem of STEM_TYPES) {
    const rms = activeRms(stems[stem]);
    balance[stem] = rms > 0 ? 10 ** (levelsDb[stem] / 20) / rms : 0;
  }
  let mixPeak = 0;
  for (let i = 0; i < frames; i++) {
    let l = 0;
    let r = 0;
    for (const stem of STEM_TYPES) {
      l += stems[stem].left[i] * balance[stem];
      r += stems[stem].right[i] * balance[stem];
    }
    mixPeak = Math.max(mixPeak, Math.abs(l), Math.abs(r));
  }
  const common = mixPeak > 0 ? 10 ** (peakDbfs / 20) / mixPeak : 1;

  const out = {} as StemSetAudio;
  for (const stem of STEM_TYPES) {
    const g = balance[stem] * common;
    out[stem] = { sampleRate, left: stems[stem].left.map((x) => x * g), right: stems[stem].right.map((x) => x * g) };
  }
  const mixture: StereoAudio = { sampleRate, left: new Float32Array(frames), right: new Float32Array(frames) };
  for (let i = 0; i < frames; i++) {
    mixture.left[i] = out.vocals.left[i] + out.drums.left[i] + out.bass.left[i] + out.other.left[i];
    mixture.right[i] = out.vocals.right[i] + out.drums.right[i] + out.bass.right[i] + out.other.right[i];
  }
  return { stems: out, mixture, peakDbfs: 20 * Math.log10(peak(mixture)) };
}

/**
 * Look-ahead peak limiter (stereo-linked): holds peaks to `crestDb` above the stem's active RMS,
 * like the bus compression a produced mix has. Without it, raw GM drum hits would set the
 * mixture peak and leave the rest of the mix unrealistically quiet.
 */
export function limitCrest(a: StereoAudio, crestDb: number): void {
  const ceiling = activeRms(a) * 10 ** (crestDb / 20);
  if (!(ceiling > 0)) return;
  const n = a.left.length;
  const lookahead = Math.round(a.sampleRate * 0.002);
  const release = Math.exp(-1 / (a.sampleRate * 0.08));
  // Gain each sample needs on its own, then the minimum over the look-ahead window.
  const need = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const p = Math.max(Math.abs(a.left[i]), Math.abs(a.right[i]));
    need[i] = p > ceiling ? ceiling / p : 1;
  }
  let gain = 1;
  const window: number[] = []; // monotonic deque of indices for the sliding minimum
  for (let i = 0; i < n + lookahead; i++) {
    if (i < n) {
      while (window.length && need[window[window.length - 1]] >= need[i]) window.pop();
      window.push(i);
    }
    const out = i - lookahead;
    if (out < 0) continue;
    while (window[0] < out) window.shift();
    const target = need[window[0]];
    // Attack instantly (the look-ahead already ramps it in), release smoothly.
    gain = target < gain ? target : target + (gain - target) * release;
    a.left[out] *= gain;
    a.right[out] *= gain;
  }
}
