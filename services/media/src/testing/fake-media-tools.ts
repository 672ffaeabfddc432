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

/** ffprobe and ffmpeg over audio held in memory: media added at an address decodes in one-second chunks. */
export class FakeMediaTools implements SeparationMediaTools {
  private readonly media = new Map<string, StereoAudio>();
  /** How many decodes were started. */
  decodes = 0;

  add(input: string, audio: StereoAudio): void {
    this.media.set(input, audio);
  }

  async probe(input: string): Promise<MediaProbe> {
    const audio = this.read(input);
    return {
      formatName: 'wav',
      durationSeconds: audio.left.length / audio.sampleRate,
      hasVideo: false,
      audio: { codec: 'pcm_f32le', sampleRate: audio.sampleRate, channels: 2 },
    };
  }

  async *decodeStream(input: string): AsyncGenerator<StereoAudio> {
    const audio = this.read(input);
    this.decodes++;
    for (let from = 0; from < audio.left.length; from += audio.sampleRate) {
      const to = Math.min(audio.left.length, from + audio.sampleRate);
      yield { sampleRate: audio.sampleRate, left: audio.left.slice(from, to), right: audio.right.slice(from, to) };
    }
  }

  flacEncoder(): StemEncoder {
    return new FakeFlacEncoder();
  }

  private read(input: string): StereoAudio {
    const audio = this.media.get(input);
    if (!audio) throw new Error(`${input}: No such file or directory`);
    return audio;
  }
}
