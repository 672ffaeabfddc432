import type { SongFeatures } from './chorus';

/** The rate the mix is read at for the chorus choice: enough for pitch classes up to 2 kHz and for levels. */
export const FEATURE_SAMPLE_RATE = 11025;
/** Samples per analysis frame (about 93 ms): levels and pitch classes per frame. */
const HOP = 1024;
/** FFT length (about 370 ms): 2.7 Hz bins, so semitones apart from about 100 Hz up. */
const FFT_SIZE = 4096;
const CHROMA_LOW_HZ = 100;
const CHROMA_HIGH_HZ = 2000;

/**
 * Per-frame energy and pitch-class power of a mono signal at FEATURE_SAMPLE_RATE, fed in chunks as ffmpeg decodes
 * it (a 4-minute song is about 10 MB of float samples; it is kept, then measured once at the end).
 */
export class SongFeatureReader {
  private chunks: Buffer[] = [];
  private bytes = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
  }

  features(): SongFeatures {
    const pcm = Buffer.concat(this.chunks, this.bytes);
    const samples = new Float32Array(Math.floor(pcm.length / 4));
    new Uint8Array(samples.buffer).set(pcm.subarray(0, samples.length * 4));
    this.chunks = [];
    return measureFeatures(samples, FEATURE_SAMPLE_RATE);
  }
}

export function measureFeatures(samples: Float32Array, sampleRate: number): SongFeatures {
  const frames = Math.ceil(samples.length / HOP);
  const energy = new Float64Array(frames);
  const chroma = new Float64Array(frames * 12);
  const window = new Float64Array(FFT_SIZE).map((_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE));
  const binClass = new Int8Array(FFT_SIZE / 2).fill(-1);
  for (let bin = 1; bin < FFT_SIZE / 2; bin++) {
    const hz = (bin * sampleRate) / FFT_SIZE;
    if (hz < CHROMA_LOW_HZ || hz > CHROMA_HIGH_HZ) continue;
    binClass[bin] = (((Math.round(69 + 12 * Math.log2(hz / 440)) % 12) + 12) % 12) as number;
  }
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  for (let frame = 0; frame < frames; frame++) {
    const start = frame * HOP;
    const end = Math.min(samples.length, start + HOP);
    let sum = 0;
    for (let i = start; i < end; i++) sum += samples[i]! * samples[i]!;
    energy[frame] = end > start ? sum / (end - start) : 0;
    // The FFT window is centred on the frame.
    const from = start + HOP / 2 - FFT_SIZE / 2;
    for (let i = 0; i < FFT_SIZE; i++) {
      const at = from + i;
      re[i] = at >= 0 && at < samples.length ? samples[at]! * window[i]! : 0;
      im[i] = 0;
    }
    fft(re, im);
    for (let bin = 1; bin < FFT_SIZE / 2; bin++) {
      const pc = binClass[bin]!;
      if (pc >= 0) chroma[frame * 12 + pc] += re[bin]! * re[bin]! + im[bin]! * im[bin]!;
    }
  }
  return { frameRate: sampleRate / HOP, energy, chroma };
}

/** In-place iterative radix-2 FFT (length a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    const stepRe = Math.cos(angle);
    const stepIm = Math.sin(angle);
    for (let start = 0; start < n; start += size) {
      let wRe = 1;
      let wIm = 0;
      for (let k = 0; k < size / 2; k++) {
        const a = start + k;
        const b = a + size / 2;
        const tRe = re[b]! * wRe - im[b]! * wIm;
        const tIm = re[b]! * wIm + im[b]! * wRe;
        re[b] = re[a]! - tRe;
        im[b] = im[a]! - tIm;
        re[a] += tRe;
        im[a] += tIm;
        const nextRe = wRe * stepRe - wIm * stepIm;
        wIm = wRe * stepIm + wIm * stepRe;
        wRe = nextRe;
      }
    }
  }
}
