import type { StereoAudio } from '@stemdeck/audio';

/** Freeverb delay lengths at 44.1 kHz; the right channel is offset to decorrelate. */
const COMBS = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617];
const ALLPASSES = [556, 441, 341, 225];
const STEREO_SPREAD = 23;

export interface ReverbOptions {
  /** Wet level relative to the dry signal. */
  wet: number;
  /** Feedback 0..1: larger = longer tail. */
  roomSize: number;
  /** 0..1: high-frequency damping in the tail. */
  damping: number;
  preDelaySeconds: number;
}

/**
 * Centred dry voice plus a small Freeverb-style stereo room, the way a produced lead vocal
 * sits: the dry signal is identical in both channels, only the tail differs.
 */
export function placeVocal(dry: Float32Array, sampleRate: number, o: ReverbOptions): StereoAudio {
  const { left, right } = roomTail(dry, sampleRate, o);
  for (let i = 0; i < dry.length; i++) {
    left[i] = dry[i] + o.wet * left[i];
    right[i] = dry[i] + o.wet * right[i];
  }
  return { sampleRate, left, right };
}

/** The room's stereo tail alone (unscaled by `wet`): the input pre-delayed through both Freeverb channels. */
export function roomTail(dry: Float32Array, sampleRate: number, o: ReverbOptions): StereoAudio {
  const scale = sampleRate / 44100;
  const preDelay = Math.round(o.preDelaySeconds * sampleRate);
  const input = new Float32Array(dry.length);
  for (let i = preDelay; i < dry.length; i++) input[i] = dry[i - preDelay];
  return { sampleRate, left: freeverbChannel(input, 0, scale, o), right: freeverbChannel(input, STEREO_SPREAD, scale, o) };
}

function freeverbChannel(input: Float32Array, spread: number, scale: number, o: ReverbOptions): Float32Array {
  const n = input.length;
  const out = new Float32Array(n);
  const feedback = 0.7 + 0.28 * o.roomSize;
  for (const length of COMBS) {
    const size = Math.round((length + spread) * scale);
    const buf = new Float64Array(size);
    let idx = 0;
    let store = 0;
    for (let i = 0; i < n; i++) {
      const y = buf[idx];
      store = y * (1 - o.damping) + store * o.damping;
      buf[idx] = input[i] * 0.015 + store * feedback;
      out[i] += y;
      if (++idx === size) idx = 0;
    }
  }
  for (const length of ALLPASSES) {
    const size = Math.round((length + spread) * scale);
    const buf = new Float64Array(size);
    let idx = 0;
    for (let i = 0; i < n; i++) {
      const b = buf[idx];
      const x = out[i];
      buf[idx] = x + b * 0.5;
      out[i] = b - x;
      if (++idx === size) idx = 0;
    }
  }
  return out;
}
