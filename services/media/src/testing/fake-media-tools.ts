import type { MediaProbe, StereoAudio } from '@stemdeck/audio';
import { PassThrough } from 'node:stream';
import type { SeparationMediaTools, StemEncoder } from '../separation/separation.ports';

/** Stands in for ffmpeg's FLAC encoder: 8 bytes out per frame in, so stored sizes show how many frames were written. */
export class FakeFlacEncoder implements StemEncoder {
  readonly output = new PassThrough();
  readonly done: Promise<void>;
  private settle!: (error?: Error) => void;

  constructor() {
    this.done = new Promise((resolve, reject) => (this.settle = (error) => (error ? reject(error) : resolve())));
    this.done.catch(() => undefined);
  }

  async write(left: Float32Array): Promise<void> {
    this.output.write(Buffer.alloc(left.length * 8));
  }

  end(): Promise<void> {
    this.output.end();
    this.settle();
    return this.done;
  }

  abort(): void {
    this.settle(new Error('aborted'));
    this.output.end();
  }
}

/** What a fake input probes as, beyond its audio: a video, or a file whose decode breaks after some frames. */
export interface FakeMediaOptions {
  video?: boolean;
  /** The decode throws after this many frames (a file damaged part-way). */
  failAfterFrames?: number;
}

/**
 * ffprobe and ffmpeg over audio held in memory: media added at an address decodes in one-second chunks;
 * an address with nothing added fails to probe, like a file ffprobe cannot read. A video's track extracts
 * as a few marker bytes (a test adds the audio at the address the extracted object is read from).
 */
export class FakeMediaTools implements SeparationMediaTools {
  private readonly media = new Map<string, { audio: StereoAudio; options: FakeMediaOptions }>();
  /** How many decodes were started, and how many of them were stopped before their end. */
  decodes = 0;
  stoppedEarly = 0;

  add(input: string, audio: StereoAudio, options: FakeMediaOptions = {}): void {
    this.media.set(input, { audio, options });
  }

  /** How many probes were run. */
  probes = 0;

  async probe(input: string): Promise<MediaProbe> {
    const { audio, options } = this.read(input);
    this.probes++;
    return {
      formatName: options.video ? 'mov,mp4,m4a,3gp,3g2,mj2' : 'wav',
      durationSeconds: audio.left.length / audio.sampleRate,
      hasVideo: options.video ?? false,
      audio: { codec: 'pcm_f32le', sampleRate: audio.sampleRate, channels: 2 },
    };
  }

  async *decodeStream(input: string): AsyncGenerator<StereoAudio> {
    const { audio, options } = this.read(input);
    this.decodes++;
    let ended = false;
    try {
      for (let from = 0; from < audio.left.length; from += audio.sampleRate) {
        if (options.failAfterFrames !== undefined && from >= options.failAfterFrames) throw new Error('Invalid data found when processing input');
        const to = Math.min(audio.left.length, from + audio.sampleRate);
        yield { sampleRate: audio.sampleRate, left: audio.left.slice(from, to), right: audio.right.slice(from, to) };
      }
      ended = true;
    } finally {
      if (!ended) this.stoppedEarly++;
    }
  }

  /** How many audio tracks were extracted. */
  extractions = 0;

  extractAudioTrack(input: string): { stream: AsyncIterable<Buffer>; done: Promise<void> } {
    this.read(input);
    this.extractions++;
    return { stream: (async function* () { yield Buffer.from('fLaC'); })(), done: Promise.resolve() };
  }

  flacEncoder(): StemEncoder {
    return new FakeFlacEncoder();
  }

  private read(input: string): { audio: StereoAudio; options: FakeMediaOptions } {
    const found = this.media.get(input);
    if (!found) throw new Error(`${input}: No such file or directory`);
    return found;
  }
}
