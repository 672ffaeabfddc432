import { Inject, Injectable, Logger } from '@nestjs/common';
import { createFastSeparator, encodeFlac24, separateFastStream, STEM_TYPES, type MediaProbe, type StemSet, type StereoAudio } from '@stemdeck/audio';
import type { SeparationJobMessage, StemType } from '@stemdeck/proto';
import { stemKey, stemsPrefix } from '@stemdeck/proto';
import { annotateSpan, CLOCK, type Clock, inSpan, SPAN_ATTRIBUTES, throttledProgress, type ThrottledProgress } from '@stemdeck/platform';
import type { MediaConfig } from '../config';
import { MEDIA_CONFIG } from '../media-config.token';
import { toStem } from '../stems/stem.repository';
import { ENGINE_QUALITY } from './engine-registry';
import type { SeparationOutcome, SeparationWorkItem } from './separation-queue';
import {
  SEPARATION_ENGINES,
  SEPARATION_EVENTS,
  SEPARATION_JOBS,
  SEPARATION_MEDIA_TOOLS,
  SEPARATION_PROJECTS,
  SEPARATION_STEMS,
  INGEST_STEPS,
  STEM_STORAGE,
  type IngestSteps,
  type SeparationEngines,
  type SeparationEvents,
  type SeparationJobs,
  type SeparationMediaTools,
  type SeparationProjects,
  type SeparationStems,
  type StemStorage,
} from './separation.ports';
import { STEM_CONTENT_TYPE, StemWriter } from './stem-writer';

const PROGRESS_EVENT_MS = 250;
const PROGRESS_STORE_MS = 1000;
/** The stored job progress is a fraction to three decimals. */
const PROGRESS_STORE_STEPS = 1000;
/** While separating, how often the job looks whether its project was deleted (then it stops and cleans up). */
const PROJECT_CHECK_MS = 2000;
/**
 * Progressive stems: songs of at least PROGRESSIVE_MIN_SECONDS get their first seconds separated and stored
 * first. Three seconds: what the listener waits for is separating, encoding, storing and fetching them, and
 * the player holds at their end (rather than playing silence) if the whole stems are not there yet.
 */
export const PROGRESSIVE_HEAD_SECONDS = 3;
export const PROGRESSIVE_MIN_SECONDS = 10;
const FAST_IN_THREAD = createFastSeparator({ threads: 0 });

export const SEPARATION_FAILED = 'Stem separation failed';
export const gaveUpMessage = (attempts: number) =>
  `Stem separation failed: the server stopped while processing this file ${attempts} times, so it was given up. The file may be damaged.`;

/** The project was deleted while its stems were being made: stop, and leave nothing behind. */
class ProjectGone extends Error {
  constructor() {
    super('the project was deleted during separation');
  }
}

/** Where the mixture comes from: chunks of a streamed decode, its rate and the expected length. */
interface MixtureSource {
  chunks: AsyncIterable<StereoAudio>;
  sampleRate: number;
  expectedFrames: number;
  /** Stops the decode (its ffmpeg) if the job ends before reading it all. */
  close(): Promise<void>;
}

/**
 * One delivery of a separation job: stream the project's audio through the engine and the stems into
 * storage, then mark the job done. Memory does not grow with the song: the audio is decoded in chunks,
 * every engine separates segment by segment (the model engines window by window, in their thread), and
 * each stem is encoded to 24-bit FLAC and uploaded as it is produced. Idempotent: stems
 * have deterministic keys and ids, so a redelivered job overwrites rather than duplicates, and a job
 * already completed is acknowledged without work.
 *
 * Deliveries are bounded: JetStream delivers a job once more than the attempts allowed; that extra
 * delivery only happens when every attempt died without answering (a crash or an out-of-memory kill
 * on this file), and it marks the job failed without running it, so a poison file never loops.
 *
 * Progressive: the first time an engine separates a song, its first seconds are separated and stored
 * at the stems' own keys before the rest (`stems_partial`), so playback can start while the whole song
 * is still separating. A job that finally fails removes those partial stems again.
 */
@Injectable()
export class RunSeparationUseCase {
  private readonly logger = new Logger(RunSeparationUseCase.name);

  constructor(
    @Inject(SEPARATION_PROJECTS) private readonly projects: SeparationProjects,
    @Inject(SEPARATION_STEMS) private readonly stems: SeparationStems,
    @Inject(SEPARATION_JOBS) private readonly jobs: Pick<SeparationJobs, 'findOwned' | 'markProcessing' | 'setProgress' | 'setPartial' | 'finish'>,
    @Inject(SEPARATION_ENGINES) private readonly engines: SeparationEngines,
    @Inject(STEM_STORAGE) private readonly storage: StemStorage,
    @Inject(SEPARATION_MEDIA_TOOLS) private readonly tools: SeparationMediaTools,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
    @Inject(INGEST_STEPS) private readonly ingest: IngestSteps,
    @Inject(MEDIA_CONFIG) private readonly config: Pick<MediaConfig, 'SEPARATION_MAX_DELIVER'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(item: SeparationWorkItem): Promise<SeparationOutcome> {
    const { jobId, ownerId, projectId, engine } = item.payload;
    annotateSpan({ [SPAN_ATTRIBUTES.projectId]: projectId, [SPAN_ATTRIBUTES.jobId]: jobId, [SPAN_ATTRIBUTES.engine]: engine, [SPAN_ATTRIBUTES.attempt]: item.deliveryCount });
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) return 'give-up';
    if (job.status === 'completed' || job.status === 'failed') return 'done';
    const attempts = this.config.SEPARATION_MAX_DELIVER;
    if (item.deliveryCount > attempts) {
      this.logger.error(`job ${jobId} (${engine}): every one of ${attempts} attempts died without answering; marking it failed`);
      await this.giveUp(item.payload, `the media service stopped during each of ${attempts} attempts`, gaveUpMessage(attempts));
      return 'give-up';
    }
    const project = await this.projects.findOwned(ownerId, projectId);
    if (!project || (!project.audioKey && project.source !== 'video')) {
      await this.jobs.finish(ownerId, jobId, 'failed', 'project or its audio no longer exists');
      await this.removeStems(item.payload).catch(() => undefined);
      return 'done';
    }
    const cleanup: Array<() => Promise<void>> = [];
    try {
      await this.jobs.markProcessing(ownerId, jobId);
      this.events.publish({ type: 'stems_progress', ownerId, projectId, engine, progress: 0 });
      this.engines.get(engine);
      const started = this.clock.now();
      const audioKey = await this.ingest.audioOf(ownerId, project);
      if (!audioKey) throw new ProjectGone();
      const opened = await inSpan('media.separation.open', { [SPAN_ATTRIBUTES.projectId]: projectId, [SPAN_ATTRIBUTES.engine]: engine }, async (span) => {
        const source = await this.openSource(audioKey, audioKey === project.audioKey ? project.audioProbe : null);
        span.setAttributes({ [SPAN_ATTRIBUTES.audioSeconds]: source.sampleRate ? source.expectedFrames / source.sampleRate : 0, 'stemdeck.audio.sample_rate': source.sampleRate });
        return source;
      });
      let source = opened;
      cleanup.push(() => opened.close());
      const readyAt = this.clock.now();
      item.heartbeat();
      let head: string | null = null;
      if (project.duration >= PROGRESSIVE_MIN_SECONDS && (await this.stems.listOwned(ownerId, projectId, engine)).length === 0) {
        const taken = await takeHead(source, PROGRESSIVE_HEAD_SECONDS);
        source = taken.source;
        const firstSeconds = await inSpan('media.separation.first-seconds', { [SPAN_ATTRIBUTES.projectId]: projectId, [SPAN_ATTRIBUTES.engine]: engine, [SPAN_ATTRIBUTES.audioSeconds]: PROGRESSIVE_HEAD_SECONDS }, () =>
          this.separateHead(item.payload, taken.audio),
        );
        head = `decoded in ${this.clock.now() - readyAt} ms, ${firstSeconds}`;
      }
      // The first job of an upload also analyses the recording, on this same decode (each sample once).
      source = { ...source, chunks: this.ingest.analysing(ownerId, project, source) };
      const headAt = this.clock.now();
      const frames = await inSpan('media.separation.stream', { [SPAN_ATTRIBUTES.projectId]: projectId, [SPAN_ATTRIBUTES.engine]: engine }, async (span) => {
        const separated = await this.separateAll(item, source);
        span.setAttributes({ [SPAN_ATTRIBUTES.audioSeconds]: separated.sampleRate ? separated.count / separated.sampleRate : 0, [SPAN_ATTRIBUTES.bytes]: separated.bytes });
        return separated;
      });
      this.logger.log(
        `job ${jobId} ${engine}: ${(frames.count / frames.sampleRate).toFixed(1)} s of audio; ` +
          `audio opened (probe) in ${readyAt - started} ms; ${head === null ? '' : `${head}; `}decode, separate and store ${this.clock.now() - headAt} ms (total ${this.clock.now() - started} ms)`,
      );
      // Deleted while the last stems were being stored: what was just written must not outlive it.
      if (!(await this.projects.findOwned(ownerId, projectId))) throw new ProjectGone();
      await this.jobs.finish(ownerId, jobId, 'completed');
      await this.projects.setActiveEngine(ownerId, projectId, engine);
      const stored = (await this.stems.listOwned(ownerId, projectId, engine)).map(toStem);
      this.events.publish({ type: 'stems_progress', ownerId, projectId, engine, progress: 1 });
      this.events.publish({ type: 'stems_ready', ownerId, projectId, engine, stems: stored });
      return 'done';
    } catch (error) {
      if (error instanceof ProjectGone) {
        this.logger.log(`job ${jobId} (${engine}): project ${projectId} was deleted; removing what the job wrote`);
        await this.removeStems(item.payload);
        await this.jobs.finish(ownerId, jobId, 'failed', error.message);
        return 'done';
      }
      const message = (error as Error).message;
      this.logger.warn(`job ${jobId} (${engine}) attempt ${item.deliveryCount} of ${attempts} failed: ${message}`);
      if (item.deliveryCount < attempts) return 'retry';
      await this.giveUp(item.payload, message, SEPARATION_FAILED);
      return 'give-up';
    } finally {
      for (const close of cleanup) await close().catch(() => undefined);
    }
  }

  /** The job failed for good: the reason is stored on the job, the partial stems go, the owner is told. */
  private async giveUp(payload: SeparationJobMessage, reason: string, userMessage: string): Promise<void> {
    const { ownerId, projectId, engine, jobId } = payload;
    await this.jobs.finish(ownerId, jobId, 'failed', reason);
    await this.removeStems(payload).catch(() => undefined);
    this.events.publish({ type: 'stems_failed', ownerId, projectId, engine, message: userMessage });
  }

  /** The project's audio as a streamed decode (probed first unless the upload's check stored what it found). */
  private async openSource(audioKey: string, stored: MediaProbe | null | undefined): Promise<MixtureSource> {
    const url = await this.storage.presignedReadUrl(audioKey);
    const probe = stored?.audio ? stored : await this.tools.probe(url);
    const chunks = this.tools.decodeStream(url, probe);
    return {
      chunks,
      sampleRate: probe.audio?.sampleRate ?? 0,
      expectedFrames: Math.round(probe.durationSeconds * (probe.audio?.sampleRate ?? 0)),
      close: async () => void (await chunks.return(undefined)),
    };
  }

  /**
   * Separates and stores the song's first seconds (only when this engine has no stems for it yet: never
   * over finished stems someone may be playing). Returns how long that took.
   */
  private async separateHead(payload: SeparationJobMessage, head: StereoAudio): Promise<string> {
    const { ownerId, projectId, engine } = payload;
    const started = this.clock.now();
    // The fast engine separates a few seconds in this thread faster than it could start a worker thread.
    const stems = await (engine === 'fast' ? FAST_IN_THREAD : this.engines.get(engine)).separate(head);
    const separated = this.clock.now();
    // Encoded in this process: starting four ffmpeg encoders takes longer than encoding a few seconds.
    const encoded = STEM_TYPES.map((type) => encodeFlac24(stems[type]));
    const encodedAt = this.clock.now();
    await Promise.all(
      STEM_TYPES.map((type, i) =>
        inSpan('media.storage.write', { [SPAN_ATTRIBUTES.projectId]: projectId, [SPAN_ATTRIBUTES.stemType]: type, [SPAN_ATTRIBUTES.bytes]: encoded[i]!.length }, () =>
          this.storage.putBuffer(stemKey(ownerId, projectId, engine, type), encoded[i]!, STEM_CONTENT_TYPE),
        ),
      ),
    );
    const storedAt = this.clock.now();
    annotateSpan({ 'stemdeck.separate_ms': separated - started, 'stemdeck.encode_ms': encodedAt - separated, 'stemdeck.store_ms': storedAt - encodedAt });
    await Promise.all([this.upsertStems(payload), this.jobs.setPartial(ownerId, payload.jobId, PROGRESSIVE_HEAD_SECONDS)]);
    const stored = (await this.stems.listOwned(ownerId, projectId, engine)).map(toStem);
    this.events.publish({ type: 'stems_partial', ownerId, projectId, engine, seconds: PROGRESSIVE_HEAD_SECONDS, stems: stored });
    const done = this.clock.now();
    return `first seconds ${done - started} ms (separate ${separated - started}, encode ${encodedAt - separated}, store ${storedAt - encodedAt}, documents ${done - storedAt})`;
  }

  /** The whole song, streamed through the engine into the four stem objects; returns its length. */
  private async separateAll(item: SeparationWorkItem, source: MixtureSource): Promise<{ count: number; sampleRate: number; bytes: number }> {
    const { engine } = item.payload;
    const progress = this.progressReporter(item, 0.9);
    const report = progress.report;
    const stillThere = this.projectWatch(item.payload);
    const writer = this.writer(item.payload);
    try {
      let result: { count: number; sampleRate: number };
      const write = async (stems: StemSet) => {
        await stillThere();
        await writer.write(stems);
      };
      if (engine === 'fast') {
        const streamed = await separateFastStream(source.chunks, write, {
          expectedFrames: source.expectedFrames,
          onProgress: ({ fraction }) => report(fraction),
        });
        result = { count: streamed.frames, sampleRate: streamed.sampleRate };
      } else {
        const streamed = await this.engines.model(engine).separateStream(source.chunks, write, {
          expectedFrames: source.expectedFrames,
          onProgress: ({ fraction }) => report(fraction),
        });
        result = { count: streamed.frames, sampleRate: streamed.sampleRate };
      }
      await writer.finish();
      await this.upsertStems(item.payload);
      return { ...result, bytes: writer.bytesWritten };
    } catch (error) {
      await writer.abort();
      throw error;
    } finally {
      // The job's end is written after this returns: a progress write still on its way must land before it.
      await progress.settled();
    }
  }

  private writer({ ownerId, projectId, engine }: SeparationJobMessage): StemWriter {
    const keys = Object.fromEntries(STEM_TYPES.map((type) => [type, stemKey(ownerId, projectId, engine, type)])) as Record<StemType, string>;
    return new StemWriter(this.storage, (sampleRate) => this.tools.flacEncoder(sampleRate), keys, { [SPAN_ATTRIBUTES.projectId]: projectId });
  }

  private async upsertStems({ ownerId, projectId, engine }: SeparationJobMessage): Promise<void> {
    await Promise.all(
      STEM_TYPES.map((type) =>
        this.stems.upsert({ ownerId, projectId, engine, type, objectKey: stemKey(ownerId, projectId, engine, type), quality: ENGINE_QUALITY[engine] }),
      ),
    );
  }

  /** Resolves while the project exists; throws ProjectGone once it was deleted (looked up at most every 2 s). */
  private projectWatch({ ownerId, projectId }: SeparationJobMessage): () => Promise<void> {
    let lastCheck = this.clock.now();
    return async () => {
      const now = this.clock.now();
      if (now - lastCheck < PROJECT_CHECK_MS) return;
      lastCheck = now;
      if (!(await this.projects.findOwned(ownerId, projectId))) throw new ProjectGone();
    };
  }

  /** A job that gave up leaves no stems behind: neither partial objects nor their documents. */
  private async removeStems({ ownerId, projectId, engine }: SeparationJobMessage): Promise<void> {
    await this.stems.deleteForEngine(ownerId, projectId, engine);
    await this.storage.removePrefix(stemsPrefix(ownerId, projectId, engine));
  }

  /**
   * Progress events at most every 250 ms; the stored job progress at most every second, one write at a time
   * (a slow database skips a write rather than letting two race; a failed write is logged and skipped). `settled()`
   * resolves once no write is on its way, so the job's end, written after it, is never overwritten by a late
   * progress (a completed job at 0.9).
   */
  private progressReporter(item: SeparationWorkItem, share: number): ThrottledProgress {
    const { ownerId, projectId, engine, jobId } = item.payload;
    const writes = throttledProgress({
      intervalMs: PROGRESS_STORE_MS,
      steps: PROGRESS_STORE_STEPS,
      clock: this.clock,
      write: (step) => this.jobs.setProgress(ownerId, jobId, step / PROGRESS_STORE_STEPS),
      failed: (error) => this.logger.warn(`job ${jobId} (${engine}): progress not stored: ${error.message}`),
    });
    let lastEvent = 0;
    const report = (fraction: number) => {
      const overall = Math.min(1, Math.max(0, fraction)) * share;
      const now = this.clock.now();
      if (now - lastEvent >= PROGRESS_EVENT_MS) {
        lastEvent = now;
        this.events.publish({ type: 'stems_progress', ownerId, projectId, engine, progress: Math.floor(overall * 1000) / 1000 });
        item.heartbeat();
      }
      writes.report(overall);
    };
    return { report, settled: writes.settled };
  }
}

/**
 * Reads the first `seconds` of the source for the progressive stems and gives back a source that
 * replays them before the rest, so the whole-song pass sees every sample once.
 */
async function takeHead(source: MixtureSource, seconds: number): Promise<{ audio: StereoAudio; source: MixtureSource }> {
  const iterator = source.chunks[Symbol.asyncIterator]();
  const taken: StereoAudio[] = [];
  let frames = 0;
  let wanted = Infinity;
  while (frames < wanted) {
    const next = await iterator.next();
    if (next.done) break;
    taken.push(next.value);
    frames += next.value.left.length;
    wanted = Math.round(seconds * next.value.sampleRate);
  }
  const all = concatenate(taken);
  const headFrames = Math.min(all.left.length, wanted);
  const audio = { sampleRate: all.sampleRate, left: all.left.slice(0, headFrames), right: all.right.slice(0, headFrames) };
  async function* replay(): AsyncGenerator<StereoAudio> {
    yield* taken;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { audio, source: { ...source, chunks: replay() } };
}

function concatenate(chunks: StereoAudio[]): StereoAudio {
  const frames = chunks.reduce((total, chunk) => total + chunk.left.length, 0);
  const audio: StereoAudio = { sampleRate: chunks[0]?.sampleRate ?? 0, left: new Float32Array(frames), right: new Float32Array(frames) };
  let at = 0;
  for (const chunk of chunks) {
    audio.left.set(chunk.left, at);
    audio.right.set(chunk.right, at);
    at += chunk.left.length;
  }
  return audio;
}
