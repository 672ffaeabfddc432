/**
 * Deterministic coloured noise for the enhancement specs: white, or pink (−3 dB per octave, Paul Kellet's filter of
 * white noise), each channel from its own xorshift sequence, scaled to an RMS level.
 */
import type { StereoAudio } from '../../types';

function xorshift(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x80000000 - 1;
  };
}

function channel(color: 'white' | 'pink', length: number, seed: number): Float32Array {
  const draw = xorshift(seed);
  const out = new Float32Array(length);
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0;
  for (let i = 0; i < length; i++) {
    const white = draw();
    if (color === 'white') {
      out[i] = white;
      continue;
    }
    b0 = 0.99886 * b0 + white * 0.0555179;
    b1 = 0.99332 * b1 + white * 0.0750759;
    b2 = 0.969 * b2 + white * 0.153852;
    b3 = 0.8665 * b3 + white * 0.3104856;
    b4 = 0.55 * b4 + white * 0.5329522;
    b5 = -0.7616 * b5 - white * 0.016898;
    out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362;
    b6 = white * 0.115926;
  }
  return out;
}

export function rmsOf(audio: StereoAudio): number {
  let sum = 0;
  for (const c of [audio.left, audio.right]) for (let i = 0; i < c.length; i++) sum += c[i] * c[i];
  return Math.sqrt(sum / (audio.left.length + audio.right.length));
}

/** `seconds` of noise at `rms` (over both channels). */
export function colouredNoise(color: 'white' | 'pink', seconds: number, rms: number, sampleRate: number, seed: number): StereoAudio {
  const length = Math.round(seconds * sampleRate);
  const noise = { sampleRate, left: channel(color, length, seed), right: channel(color, length, seed + 7919) };
  const scale = rms / rmsOf(noise);
  for (const c of [noise.left, noise.right]) for (let i = 0; i < c.length; i++) c[i] *= scale;
  return noise;
}

/** `signal` plus `noise` scaled to `snrDb` below it (RMS over the signal's length). */
export function addAtSnr(signal: StereoAudio, noise: StereoAudio, snrDb: number): StereoAudio {
  const scale = rmsOf(signal) / Math.pow(10, snrDb / 20) / rmsOf(noise);
  const mixed = { sampleRate: signal.sampleRate, left: signal.left.slice(), right: signal.right.slice() };
  for (const c of ['left', 'right'] as const) for (let i = 0; i < mixed[c].length; i++) mixed[c][i] += scale * (noise[c][i] ?? 0);
  return mixed;
}
