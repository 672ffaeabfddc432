import type { StereoAudio } from '../types';

/**
 * Integrated loudness per ITU-R BS.1770-4 (the measure EBU R128 and Spotify's `loudness` use), in LUFS.
 *
 * 1. K-weighting: a high shelf (+4 dB above ~2 kHz, the head's acoustic effect) followed by a high-pass
 *    (~38 Hz, RLB curve). The standard tabulates the biquads for 48 kHz only; here they are recomputed for the
 *    actual rate from the analog prototypes (centre frequency, gain and Q that reproduce the 48 kHz table, the
 *    derivation libebur128 and pyloudnorm use), so 44.1 kHz input needs no resampling.
 * 2. Mean square per channel over 400 ms blocks every 100 ms (75 % overlap); left and right have weight 1.
 *    Block loudness = −0.691 + 10·log10(Σ channel mean squares).
 * 3. Gating: drop blocks below −70 LUFS (absolute gate), then blocks more than 10 LU below the loudness of the
 *    remaining ones (relative gate); the integrated loudness is that of the mean power of the blocks left.
 *
 * Check of the arithmetic: a 997 Hz sine of peak amplitude 0.1 (−20 dBFS) has mean square 0.005; K-weighting
 * is ≈ +0.69 dB at 997 Hz, which the −0.691 offset cancels, so one channel reads −23.0 LUFS and both −20.0.
 * Silence (or audio shorter than one block) has no gated blocks; it reports LOUDNESS_FLOOR_LUFS.
 */
export interface LoudnessMeasurement {
  integratedLufs: number;
  /** EBU Tech 3342 loudness range (LU): how much the short-term loudness varies over the track. */
  rangeLu: number;
}

export function measureLoudness(audio: StereoAudio): LoudnessMeasurement {
  const meter = new LoudnessMeter(audio.sampleRate);
  meter.push(audio.left, audio.right);
  return meter.measure();
}

function integratedFromSegments(segments: Float64Array): number {
  const blocks = windowPowers(segments, SEGMENTS_PER_BLOCK);
  const absoluteGated = blocks.filter((power) => blockLoudness(power) > ABSOLUTE_GATE_LUFS);
  if (absoluteGated.length === 0) return LOUDNESS_FLOOR_LUFS;
  const relativeGate = blockLoudness(meanOf(absoluteGated)) - RELATIVE_GATE_LU;
  const gated = absoluteGated.filter((power) => blockLoudness(power) > relativeGate);
  return Math.max(LOUDNESS_FLOOR_LUFS, blockLoudness(meanOf(gated)));
}

/**
 * Loudness range per EBU Tech 3342: short-term loudness (3 s windows, here every 100 ms), gated at −70 LUFS and
 * then 20 LU below the mean of what remains; the range is the 10th to 95th percentile of the gated values.
 */
function loudnessRange(segments: Float64Array): number {
  const shortTerm = windowPowers(segments, SHORT_TERM_SEGMENTS).filter((p) => blockLoudness(p) > ABSOLUTE_GATE_LUFS);
  if (shortTerm.length === 0) return 0;
  const gate = blockLoudness(meanOf(shortTerm)) - RANGE_RELATIVE_GATE_LU;
  const levels = shortTerm.map(blockLoudness).filter((level) => level > gate).sort((x, y) => x - y);
  const at = (q: number) => levels[Math.round(q * (levels.length - 1))];
  return levels.length > 0 ? at(0.95) - at(0.1) : 0;
}

/** What silence reads: the absolute gate (JSON has no −Infinity). */
export const LOUDNESS_FLOOR_LUFS = -70;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = 10;
const SEGMENT_SECONDS = 0.1;
const SEGMENTS_PER_BLOCK = 4;
const SHORT_TERM_SEGMENTS = 30;
const RANGE_RELATIVE_GATE_LU = 20;

function blockLoudness(power: number): number {
  return -0.691 + 10 * Math.log10(power);
}

function meanOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Mean power (summed over channels) of each window of `length` 100 ms segments, one window per segment step. */
function windowPowers(segments: Float64Array, length: number): number[] {
  const windows: number[] = [];
  for (let start = 0; start + length <= segments.length; start++) {
    let sum = 0;
    for (let k = 0; k < length; k++) sum += segments[start + k];
    windows.push(sum / length);
  }
  return windows;
}

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** Stage 1 of K-weighting: the high shelf. */
function kWeightingShelf(sampleRate: number): Biquad {
  const f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  const q = 0.7071752369554196;
  const k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  const a0 = 1 + k / q + k * k;
  return {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  };
}

/** Stage 2 of K-weighting: the RLB high-pass (numerator 1, −2, 1 as in the standard's table). */
function kWeightingHighPass(sampleRate: number): Biquad {
  const f0 = 38.13547087602444;
  const q = 0.5003270373238773;
  const k = Math.tan((Math.PI * f0) / sampleRate);
  const a0 = 1 + k / q + k * k;
  return { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
}

/**
 * Sum over both channels of the K-weighted signal's mean square in each whole 100 ms segment, fed in
 * chunks of any size (the filter state and the open segment carry over), so a long recording is measured
 * at 8 bytes per 100 ms. Both channels and both filter stages run in one loop (transposed direct form II):
 * the four recursions are independent, so the CPU overlaps them instead of waiting on one long dependency chain.
 */
export class LoudnessMeter {
  private readonly shelf: Biquad;
  private readonly highPass: Biquad;
  private readonly segmentLength: number;
  private readonly state = new Float64Array(8);
  private segments = new Float64Array(1024);
  private segmentCount = 0;
  private openSum = 0;
  private openLength = 0;

  constructor(sampleRate: number) {
    this.shelf = kWeightingShelf(sampleRate);
    this.highPass = kWeightingHighPass(sampleRate);
    this.segmentLength = Math.round(SEGMENT_SECONDS * sampleRate);
  }

  push(left: Float32Array, right: Float32Array): void {
    const { b0: sb0, b1: sb1, b2: sb2, a1: sa1, a2: sa2 } = this.shelf;
    const { b0: hb0, b1: hb1, b2: hb2, a1: ha1, a2: ha2 } = this.highPass;
    const state = this.state;
    let [ls1, ls2, lh1, lh2, rs1, rs2, rh1, rh2] = state;
    let sum = this.openSum;
    let filled = this.openLength;
    const segmentLength = this.segmentLength;
    for (let i = 0; i < left.length; i++) {
      const lx = left[i];
      const ly = sb0 * lx + ls1;
      ls1 = sb1 * lx - sa1 * ly + ls2;
      ls2 = sb2 * lx - sa2 * ly;
      const lz = hb0 * ly + lh1;
      lh1 = hb1 * ly - ha1 * lz + lh2;
      lh2 = hb2 * ly - ha2 * lz;
      const rx = right[i];
      const ry = sb0 * rx + rs1;
      rs1 = sb1 * rx - sa1 * ry + rs2;
      rs2 = sb2 * rx - sa2 * ry;
      const rz = hb0 * ry + rh1;
      rh1 = hb1 * ry - ha1 * rz + rh2;
      rh2 = hb2 * ry - ha2 * rz;
      sum += lz * lz + rz * rz;
      if (++filled === segmentLength) {
        this.closeSegment(sum / segmentLength);
        sum = 0;
        filled = 0;
      }
    }
    state.set([ls1, ls2, lh1, lh2, rs1, rs2, rh1, rh2]);
    this.openSum = sum;
    this.openLength = filled;
  }

  /** Integrated loudness and range of everything pushed (a trailing partial segment does not count). */
  measure(): LoudnessMeasurement {
    const segments = this.segments.subarray(0, this.segmentCount);
    return { integratedLufs: integratedFromSegments(segments), rangeLu: loudnessRange(segments) };
  }

  private closeSegment(power: number): void {
    if (this.segmentCount === this.segments.length) {
      const grown = new Float64Array(2 * this.segments.length);
      grown.set(this.segments);
      this.segments = grown;
    }
    this.segments[this.segmentCount++] = power;
  }
}
