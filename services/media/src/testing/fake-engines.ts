import { STEM_TYPES, type StemSet, type StereoAudio } from '@stemdeck/audio';
import { RpcFailure } from '@stemdeck/platform';
import type { EngineName } from '@stemdeck/proto';
import type { StreamingSeparator } from '../separation/engine-registry';
import type { SeparationEngines } from '../separation/separation.ports';

/** Four "stems" that are each the mixture itself: enough to follow frames through a separation. */
export const stemsOf = (audio: StereoAudio): StemSet => Object.fromEntries(STEM_TYPES.map((type) => [type, audio])) as unknown as StemSet;

/** An engine that hands the mixture back as every stem and records how many seconds it was given. */
class PassThroughSeparator implements StreamingSeparator {
  constructor(
    readonly engine: EngineName,
    private readonly separated: number[],
    private readonly failAfterFrames: number,
  ) {}

  async separate(audio: StereoAudio): Promise<StemSet> {
    this.separated.push(audio.left.length / audio.sampleRate);
    return stemsOf(audio);
  }

  // Passes each chunk through as four stems, as a model engine's stream hands back what it finished.
  async separateStream(chunks: AsyncIterable<StereoAudio>, write: (stems: StemSet) => Promise<void>) {
    let frames = 0;
    let sampleRate = 0;
    for await (const chunk of chunks) {
      frames += chunk.left.length;
      sampleRate = chunk.sampleRate;
      if (frames > this.failAfterFrames) throw new Error('engine crashed');
      await write(stemsOf(chunk));
    }
    this.separated.push(frames / sampleRate);
    return { frames, sampleRate };
  }
}

/**
 * The engines, installed as asked (all three by default); one not installed is 409, as the registry
 * answers. `failAfterFrames` makes a streamed separation throw once it has read more than that.
 */
export class FakeEngines implements SeparationEngines {
  /** Seconds of audio of each separation, in order. */
  readonly separated: number[] = [];
  private readonly installed: Set<EngineName>;
  private readonly failAfterFrames: number;

  constructor(options: { installed?: EngineName[]; failAfterFrames?: number } = {}) {
    this.installed = new Set(options.installed ?? ['fast', 'hybrid', 'quality']);
    this.failAfterFrames = options.failAfterFrames ?? Infinity;
  }

  get(engine: EngineName): StreamingSeparator {
    if (!this.installed.has(engine)) throw new RpcFailure(409, `${engine} engine not installed`);
    return new PassThroughSeparator(engine, this.separated, this.failAfterFrames);
  }

  model(engine: Exclude<EngineName, 'fast'>): StreamingSeparator {
    return this.get(engine);
  }
}
