import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { bundledEngineSpec, createFastSeparator, Separator, type OnnxSeparatorSpec, type StemSet, type StereoAudio, type StreamSeparationOptions, type StreamSeparationResult } from '@stemdeck/audio';
import { ObjectStorageAdapter, RpcFailure } from '@stemdeck/platform';
import { ENGINE_NAMES, EngineInfo, EngineName } from '@stemdeck/proto';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MEDIA_CONFIG } from '../media-config.token';
import type { MediaConfig } from '../config';
import { ThreadedOnnxSeparator } from './threaded-separator';

/** The quality label the mixer shows for stems of each engine: excellent, good (anything else is shown as poor). */
export const ENGINE_QUALITY: Record<EngineName, string> = { fast: 'good', hybrid: 'excellent', quality: 'excellent' };

/**
 * The figures `npm run bench:separation` printed for each engine as shipped (README, "Separation"): mean
 * global SDR on the held-out songs and the real-time factor for a 4-minute song on the 2-core machine (the
 * model engines: the median of the latest quiet runs of the same-size network on this machine, 26 Nov: quality
 * 10.0, 10.2, 10.4 and 10.4×, hybrid 13.8 and 16.8×; the README gives every earlier run).
 * Shown beside the engine in the mixer; an operator's own model has none.
 */
export const SHIPPED_ENGINE_FIGURES: Partial<Record<EngineName, { heldOutSdrDb: number; realTimeFactor: number }>> = {
  fast: { heldOutSdrDb: 3.23, realTimeFactor: 84 },
  hybrid: { heldOutSdrDb: 4.75, realTimeFactor: 15.3 },
  quality: { heldOutSdrDb: 4.78, realTimeFactor: 10.3 },
};

const MODEL_VARIABLE: Record<Exclude<EngineName, 'fast'>, 'STEM_MODEL_HYBRID' | 'STEM_MODEL_QUALITY'> = {
  hybrid: 'STEM_MODEL_HYBRID',
  quality: 'STEM_MODEL_QUALITY',
};

/** A model engine that also takes a song as it is decoded (memory bounded by its windows, not the song). */
export interface StreamingSeparator extends Separator {
  separateStream(source: AsyncIterable<StereoAudio>, write: (stems: StemSet) => Promise<void>, options?: Omit<StreamSeparationOptions, 'threads'>): Promise<StreamSeparationResult>;
}

/** What users read about a missing engine; how to install one is for operators (README, logs). */
const notInstalled = (engine: EngineName): string => `${engine === 'hybrid' ? 'Hybrid' : 'High-quality'} engine not installed on this server`;

/**
 * The three engines of the product. `fast` is our own DSP and always present; `hybrid` and `quality` run
 * our own trained network, shipped with the code (one pass / with test-time augmentation), unless config
 * names another ONNX model for them (an HTDemucs-class waveform model: a path, or `s3:<key>` in our
 * bucket) or switches them off ("off"). An engine without a model is listed as unavailable and requests
 * for it are answered 409.
 */
@Injectable()
export class EngineRegistry implements OnModuleInit {
  private readonly logger = new Logger(EngineRegistry.name);
  private readonly separators = new Map<EngineName, Separator>();
  private readonly models = new Map<Exclude<EngineName, 'fast'>, StreamingSeparator>();
  private readonly unavailable = new Map<EngineName, string>();
  /** Loaded engines running what the project ships (its DSP or its bundled network), whose figures are known. */
  private readonly shipped = new Set<EngineName>(['fast']);

  constructor(
    @Inject(MEDIA_CONFIG) private readonly config: MediaConfig,
    private readonly storage: ObjectStorageAdapter,
  ) {}

  async onModuleInit(): Promise<void> {
    this.separators.set('fast', createFastSeparator());
    for (const engine of ['hybrid', 'quality'] as const) {
      const variable = MODEL_VARIABLE[engine];
      const configured = this.config[variable];
      if (configured === 'off') {
        this.unavailable.set(engine, notInstalled(engine));
        this.logger.warn(`${engine} engine switched off (${variable}=off)`);
        continue;
      }
      try {
        const spec: OnnxSeparatorSpec = configured
          ? { modelPath: await this.resolveModel(configured), sampleRate: this.config.STEM_MODEL_SAMPLE_RATE }
          : bundledEngineSpec(engine);
        const separator = new ThreadedOnnxSeparator(engine, spec);
        // Opening the session checks the model's inputs and outputs now, not on a user's first request.
        await separator.load().catch(async (error: Error) => {
          await separator.terminate();
          throw error;
        });
        this.separators.set(engine, separator);
        this.models.set(engine, separator);
        if (!configured) this.shipped.add(engine);
        this.logger.log(`${engine} engine: ${spec.modelPath}${configured ? '' : ' (bundled)'}`);
      } catch (error) {
        this.unavailable.set(engine, notInstalled(engine));
        this.logger.warn(`${engine} engine not installed: ${configured ? `${variable} (${configured})` : 'bundled model'} ${(error as Error).message}`);
      }
    }
  }

  list(): EngineInfo[] {
    return ENGINE_NAMES.map((engine) => ({
      engine,
      available: this.separators.has(engine),
      reason: this.unavailable.get(engine) ?? null,
      quality: ENGINE_QUALITY[engine],
      measured: (this.shipped.has(engine) && SHIPPED_ENGINE_FIGURES[engine]) || null,
    }));
  }

  /** The separator for an engine, or a 409 saying it is not installed. */
  get(engine: EngineName): Separator {
    const separator = this.separators.get(engine);
    if (!separator) throw new RpcFailure(409, this.unavailable.get(engine) ?? `${engine} engine not installed`);
    return separator;
  }

  /** A model engine's streaming separator, or the same 409 as `get`. */
  model(engine: Exclude<EngineName, 'fast'>): StreamingSeparator {
    const separator = this.models.get(engine);
    if (!separator) throw new RpcFailure(409, this.unavailable.get(engine) ?? `${engine} engine not installed`);
    return separator;
  }

  private async resolveModel(configured: string): Promise<string> {
    if (!configured.startsWith('s3:')) {
      if (!existsSync(configured)) throw new Error('does not exist');
      return configured;
    }
    const key = configured.slice(3);
    if (!(await this.storage.stat(key))) throw new Error('is not in object storage');
    const dir = join(this.config.MEDIA_WORK_DIR, 'models');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, basename(key));
    await this.storage.downloadFile(key, path);
    return path;
  }
}
