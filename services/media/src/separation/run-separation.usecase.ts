import { Injectable, Logger } from '@nestjs/common';
import { encodeWav, STEM_TYPES, StemSet, type StereoAudio } from '@stemdeck/audio';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import type { SeparationJobMessage } from '@stemdeck/proto';
import { DecodedAudioCache } from '../media-tools/decoded-audio.cache';
import { MediaToolsAdapter } from '../media-tools/media-tools.adapter';
import { ProjectRepository } from '../projects/project.repository';
import { StemRepository, toStem } from '../stems/stem.repository';
import { stemKey, stemsPrefix } from '@stemdeck/proto';
import { ENGINE_QUALITY, EngineRegistry } from './engine-registry';
import { MediaEventsPublisher } from './media-events.publisher';
import { SeparationJobRepository } from './separation-job.repository';
import type { SeparationOutcome, SeparationWorkItem } from './separation-queue';

const PROGRESS_EVENT_MS = 250;
const PROGRESS_STORE_MS = 1000;
/** Progressive stems: songs at least twice this long get their first seconds separated and stored first. */
export const PROGRESSIVE_HEAD_SECONDS = 5;

/** The first `seconds` of a recording, copied (worker threads receive their own buffers). */
const headOf = (audio: StereoAudio, seconds: number): StereoAudio => {
  const frames = Math.min(audio.left.length, Math.round(seconds * audio.sampleRate));
  return { sampleRate: audio.sampleRate, left: audio.left.slice(0, frames), right: audio.right.slice(0, frames) };
};

/**
 * One delivery of a separation job: decode the project's audio, run the engine, store the four stems,
 * then mark the job done. Idempotent: stems have deterministic keys and ids, so a redelivered job
 * overwrites rather than duplicates, and a job already completed is acknowledged without work.
 *
 * Progressive: the first time an engine separates a song, its first seconds are separated and stored
 * at the stems' own keys before the rest (`stems_partial`), so playback can start while the whole song
 * is still separating. A job that finally fails removes those partial stems again.
 */
@Injectable()
export class RunSeparationUseCase {
  private readonly logger = new Logger(RunSeparationUseCase.name);

  constructor(
    private readonly projects: ProjectRepository,
    private readonly stems: StemRepository,
    private readonly jobs: SeparationJobRepository,
    private readonly engines: EngineRegistry,
    private readonly storage: ObjectStorageAdapter,
    private readonly tools: MediaToolsAdapter,
    private readonly events: MediaEventsPublisher,
    private readonly decoded: DecodedAudioCache,
  ) {}

  async execute(item: SeparationWorkItem): Promise<SeparationOutcome> {
    const { jobId, ownerId, projectId, engine } = item.payload;
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) return 'give-up';
    if (job.status === 'completed' || job.status === 'failed') return 'done';
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project?.audioKey) {
      await this.jobs.finish(ownerId, jobId, 'failed', 'project or its audio no longer exists');
      return 'done';
    }
    try {
      await this.jobs.markProcessing(ownerId, jobId);
      this.events.publish({ type: 'stems_progress', ownerId, projectId, engine, progress: 0 });
      const separator = this.engines.get(engine);
      const started = Date.now();
      const mixture = this.decoded.take(project.audioKey) ?? (await this.tools.decode(await this.storage.presignedReadUrl(project.audioKey)));
      const decodedAt = Date.now();
      item.heartbeat();
      const headMs = await this.separateHead(item.payload, mixture);
      const headAt = Date.now();
      const report = this.progressReporter(item, 0.9);
      const stems = await separator.separate(mixture, ({ fraction }) => report(fraction));
      const separatedAt = Date.now();
      await this.store(item.payload, stems);
      this.logger.log(
        `job ${jobId} ${engine}: ${(mixture.left.length / mixture.sampleRate).toFixed(1)} s of audio; decode ${decodedAt - started} ms, ` +
          `${headMs === null ? '' : `first seconds ${headMs} ms, `}separate ${separatedAt - headAt} ms, store ${Date.now() - separatedAt} ms`,
      );
      await this.jobs.finish(ownerId, jobId, 'completed');
      await this.projects.setActiveEngine(ownerId, projectId, engine);
      const stored = (await this.stems.listOwned(ownerId, projectId, engine)).map(toStem);
      this.events.publish({ type: 'stems_progress', ownerId, projectId, engine, progress: 1 });
      this.events.publish({ type: 'stems_ready', ownerId, projectId, engine, stems: stored });
      return 'done';
    } catch (error) {
      const message = (error as Error).message;
      this.logger.warn(`job ${jobId} (${engine}) attempt ${item.deliveryCount} failed: ${message}`);
      if (!item.isLastAttempt) return 'retry';
      await this.jobs.finish(ownerId, jobId, 'failed', message);
      await this.removeStems(item.payload).catch(() => undefined);
      this.events.publish({ type: 'stems_failed', ownerId, projectId, engine, message: 'Stem separation failed' });
      return 'give-up';
    }
  }

  /**
   * Separates and stores the song's first seconds when this engine has no stems for it yet (never over
   * finished stems someone may be playing). Returns how long that took, or null when it was skipped.
   */
  private async separateHead(payload: SeparationJobMessage, mixture: StereoAudio): Promise<number | null> {
    const { ownerId, projectId, engine } = payload;
    if (mixture.left.length < 2 * PROGRESSIVE_HEAD_SECONDS * mixture.sampleRate) return null;
    if ((await this.stems.listOwned(ownerId, projectId, engine)).length > 0) return null;
    const started = Date.now();
    await this.store(payload, await this.engines.get(engine).separate(headOf(mixture, PROGRESSIVE_HEAD_SECONDS)));
    const stems = (await this.stems.listOwned(ownerId, projectId, engine)).map(toStem);
    this.events.publish({ type: 'stems_partial', ownerId, projectId, engine, seconds: PROGRESSIVE_HEAD_SECONDS, stems });
    return Date.now() - started;
  }

  /** A job that gave up leaves no stems behind: neither partial objects nor their documents. */
  private async removeStems({ ownerId, projectId, engine }: SeparationJobMessage): Promise<void> {
    await this.stems.deleteForEngine(ownerId, projectId, engine);
    await this.storage.removePrefix(stemsPrefix(ownerId, projectId, engine));
  }

  /** The four stems are written concurrently; each document is upserted once its object is stored. */
  private async store({ ownerId, projectId, engine }: SeparationJobMessage, stems: StemSet): Promise<void> {
    await Promise.all(
      STEM_TYPES.map(async (type) => {
        const objectKey = stemKey(ownerId, projectId, engine, type);
        await this.storage.putBuffer(objectKey, encodeWav(stems[type], 16), 'audio/wav');
        await this.stems.upsert({ ownerId, projectId, engine, type, objectKey, quality: ENGINE_QUALITY[engine] });
      }),
    );
  }

  /** Progress events at most every 250 ms; the stored job progress at most every second. */
  private progressReporter(item: SeparationWorkItem, share: number): (fraction: number) => void {
    const { ownerId, projectId, engine, jobId } = item.payload;
    let lastEvent = 0;
    let lastStore = 0;
    return (fraction) => {
      const now = Date.now();
      const progress = Math.round(Math.min(1, Math.max(0, fraction)) * share * 1000) / 1000;
      if (now - lastEvent >= PROGRESS_EVENT_MS) {
        lastEvent = now;
        this.events.publish({ type: 'stems_progress', ownerId, projectId, engine, progress });
        item.heartbeat();
      }
      if (now - lastStore >= PROGRESS_STORE_MS) {
        lastStore = now;
        void this.jobs.setProgress(ownerId, jobId, progress).catch(() => undefined);
      }
    };
  }
}
