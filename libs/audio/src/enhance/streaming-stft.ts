import { SampleQueue } from '../dsp/sample-queue';
import { StereoStft, type StereoSamples, type StereoSpectrogram } from '../dsp/stft';

/**
 * Called once per block of frames: `spec` holds the block's spectra (rows 0..frames-1 are the absolute frames
 * firstFrame..), and `mask` (frame-major like the spectrogram, one gain per bin, shared by both channels) is to be
 * filled when the stream resynthesises. The spectrogram's own `firstFrame` is local to the block and means nothing
 * to the caller.
 */
export type BlockHandler = (spec: StereoSpectrogram, firstFrame: number, frames: number, mask: Float32Array) => void;

/**
 * A StereoStft run over audio that arrives in chunks, holding only one block of frames at a time: memory stays at a
 * few blocks however long the input. Frames are StereoStft's (frame f covers samples [f·hop − (size − hop), f·hop +
 * hop), zeros outside the track), so with `resynthesise` the output is the input's own length and sample-aligned
 * with it: sample n out is sample n in, weighted by the gains of the frames over it. Output comes back from push()
 * as soon as every frame over a sample has been added, i.e. (size − hop) plus up to one block of samples late.
 */
export class StreamingStft {
  readonly bins: number;
  private readonly stft: StereoStft;
  private readonly left = new SampleQueue();
  private readonly right = new SampleQueue();
  private readonly overlap: number;
  /** Row of the block spectrogram whose local frame start is sample 0 of the local buffers. */
  private readonly localFirstFrame: number;
  private readonly spec: StereoSpectrogram;
  private readonly mask: Float32Array;
  private readonly inBlock: StereoSamples;
  private readonly outBlock: StereoSamples;
  private readonly carry: StereoSamples;
  private received = 0;
  private nextFrame = 0;
  private emitted = 0;

  constructor(
    readonly size: number,
    readonly hop: number,
    private readonly blockFrames: number,
    private readonly onBlock: BlockHandler,
    private readonly resynthesise: boolean,
  ) {
    this.stft = new StereoStft(size, hop);
    this.bins = this.stft.bins;
    this.overlap = size - hop;
    this.localFirstFrame = this.overlap / hop;
    this.spec = this.stft.createSpectrogram(this.localFirstFrame, blockFrames);
    this.mask = new Float32Array(blockFrames * this.bins);
    const span = (blockFrames - 1) * hop + size;
    this.inBlock = { left: new Float32Array(span), right: new Float32Array(span) };
    this.outBlock = { left: new Float32Array(span), right: new Float32Array(span) };
    this.carry = { left: new Float32Array(this.overlap), right: new Float32Array(this.overlap) };
  }

  /** Samples received so far. */
  get length(): number {
    return this.received;
  }

  /** Adds a chunk (both channels the same length); returns the output completed by it (empty without resynthesis). */
  push(left: Float32Array, right: Float32Array): StereoSamples {
    this.left.append(left);
    this.right.append(right);
    this.received += left.length;
    const ready = Math.floor((this.received - this.overlap) / this.hop) + this.localFirstFrame - this.nextFrame;
    return this.process(Math.floor(Math.max(0, ready) / this.blockFrames) * this.blockFrames);
  }

  /** The input has ended: processes the remaining frames and returns the rest of the output. */
  end(): StereoSamples {
    return this.process(this.stft.frameCount(this.received) - this.nextFrame);
  }

  private process(frames: number): StereoSamples {
    const chunks: StereoSamples[] = [];
    for (let done = 0; done < frames; ) {
      const count = Math.min(this.blockFrames, frames - done);
      const out = this.processBlock(count);
      if (out) chunks.push(out);
      done += count;
    }
    return concat(chunks);
  }

  private processBlock(frames: number): StereoSamples | null {
    const { hop, size, overlap, bins } = this;
    const start = this.stft.frameStart(this.nextFrame);
    const span = (frames - 1) * hop + size;
    for (const [queue, into] of [[this.left, this.inBlock.left], [this.right, this.inBlock.right]] as const) {
      into.fill(0);
      // Before the track and past what was received are zeros (StereoStft's framing).
      const skip = Math.max(0, -start);
      const available = Math.max(0, Math.min(span, this.received - start) - skip);
      if (available > 0) queue.read(start + skip, into.subarray(skip, skip + available));
    }
    const spec = frames === this.blockFrames ? this.spec : { ...this.spec, frames };
    const local = { left: this.inBlock.left.subarray(0, span), right: this.inBlock.right.subarray(0, span) };
    this.stft.analyze(local, spec);
    this.onBlock(spec, this.nextFrame, frames, this.mask);
    this.nextFrame += frames;
    const nextStart = this.stft.frameStart(this.nextFrame);
    this.left.dropBefore(nextStart);
    this.right.dropBefore(nextStart);
    if (!this.resynthesise) return null;

    const out = { left: this.outBlock.left.subarray(0, span), right: this.outBlock.right.subarray(0, span) };
    out.left.fill(0);
    out.right.fill(0);
    const mask = { left: this.mask, right: this.mask };
    this.stft.synthesize(spec, this.localFirstFrame, this.localFirstFrame + frames, [mask], [out], 0, span);
    for (let n = 0; n < overlap; n++) {
      out.left[n] += this.carry.left[n];
      out.right[n] += this.carry.right[n];
    }
    this.carry.left.set(out.left.subarray(span - overlap, span));
    this.carry.right.set(out.right.subarray(span - overlap, span));
    // Samples [start, nextStart) have had every frame over them added; those before the track or past its end go.
    const from = Math.max(this.emitted, start, 0);
    const to = Math.min(nextStart, this.received);
    if (to <= from) return null;
    this.emitted = to;
    return { left: out.left.slice(from - start, to - start), right: out.right.slice(from - start, to - start) };
  }
}

function concat(chunks: StereoSamples[]): StereoSamples {
  if (chunks.length === 1) return chunks[0];
  const length = chunks.reduce((sum, c) => sum + c.left.length, 0);
  const out = { left: new Float32Array(length), right: new Float32Array(length) };
  let at = 0;
  for (const c of chunks) {
    out.left.set(c.left, at);
    out.right.set(c.right, at);
    at += c.left.length;
  }
  return out;
}
