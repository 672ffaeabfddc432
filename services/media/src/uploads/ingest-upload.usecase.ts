import { Injectable, Logger } from '@nestjs/common';
import { MediaProbe, StreamingAnalysis, type StereoAudio } from '@stemdeck/audio';
import { ObjectStorageAdapter, RpcFailure } from '@stemdeck/platform';
import type { IngestUploadRequest, Project, SeparationJob } from '@stemdeck/proto';
import { isStillImage, looksLikeMedia, MediaToolsAdapter } from '../media-tools/media-tools.adapter';
import { DeleteProjectUseCase } from '../projects/delete-project.usecase';
import { PROJECT_NOT_FOUND, ProjectRepository, toProject } from '../projects/project.repository';
import { ProjectDocument } from '../projects/project.schema';
import { releaseMemory } from '../release-memory';
import { RequestSeparationUseCase } from '../separation/request-separation.usecase';
import { extractedAudioKey, PROJECT_NAME_MAX, projectPrefix } from '@stemdeck/proto';

export const NOT_MEDIA = 'Please upload an audio or video file';
export const UNREADABLE = 'The selected file could not be processed';
export const NO_SOUND = 'The selected video has no audio track';
export const TOO_SHORT = 'The selected file is too short to split into stems (under a quarter of a second)';
/** Shorter than this there is nothing to hear, let alone separate: one STFT window of the fast engine is 93 ms. */
export const MIN_AUDIO_SECONDS = 0.25;

export interface IngestResult {
  project: Project;
  analysis: { bpm: number; key: string };
  job: SeparationJob | null;
}

/**
 * The file's own name, whatever the client sent: no folders ("../", "C:\\"), no control characters,
 * at most 200 characters (whole characters: emoji are kept intact).
 */
export const fileNameOf = (sent: string): string => {
  const base = sent.split(/[/\\]/).pop() ?? '';
  const clean = [...base.replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(0, 200).join('');
  return clean.replace(/^\.+/, '') || 'upload';
};

/** "My Song.final.mp3" → "My Song.final" (the name is the file name without its extension). */
export const projectNameOf = (fileName: string): string => {
  const name = fileName.replace(/\.[^./\\]{1,8}$/, '').trim() || fileName;
  return [...name].slice(0, PROJECT_NAME_MAX).join('').trim();
};

/**
 * Turns an uploaded object into a project: probe by content, extract a video's audio track, decode until
 * there is enough sound to be a song, then create the project and queue the `fast` separation at once —
 * its first seconds are separated while this decode goes on through the analysis (tempo, key, loudness,
 * features), which the answer carries. Nothing is half-written: a failure before the project exists
 * removes the uploaded objects; after, the whole project goes (documents, stems the job wrote, objects).
 */
@Injectable()
export class IngestUploadUseCase {
  private readonly logger = new Logger(IngestUploadUseCase.name);

  constructor(
    private readonly storage: ObjectStorageAdapter,
    private readonly tools: MediaToolsAdapter,
    private readonly projects: ProjectRepository,
    private readonly separation: RequestSeparationUseCase,
    private readonly deleteProject: DeleteProjectUseCase,
  ) {}

  async execute(request: IngestUploadRequest): Promise<IngestResult> {
    const { ownerId, projectId, objectKey, fileName: sentName } = request;
    let created = false;
    try {
      const started = Date.now();
      const url = await this.storage.presignedReadUrl(objectKey);
      const probe = await this.probe(objectKey, url);
      const probedAt = Date.now();
      let audioKey = objectKey;
      if (probe.hasVideo) {
        audioKey = extractedAudioKey(ownerId, projectId);
        await this.extractAudio(url, audioKey);
      }
      let job: SeparationJob | null = null;
      const analysed = await this.decodeAndAnalyse(url, probe, objectKey, async () => {
        await this.createProject(request, probe, audioKey);
        created = true;
        job = await this.separation.execute({ ownerId, projectId, engine: 'fast' });
      });
      const { analysis, frames, sampleRate } = analysed;
      const seconds = frames / sampleRate;
      const project = await this.projects.setAnalysis(ownerId, projectId, {
        duration: Math.round(seconds * 1000) / 1000,
        bpm: analysis.bpm,
        key: analysis.key,
        analysis: { loudnessLufs: analysis.loudnessLufs, spotifyFeatures: analysis.spotifyFeatures },
      });
      // Deleted while it was being analysed (the owner changed their mind): nothing to answer with.
      if (!project) throw new RpcFailure(404, PROJECT_NOT_FOUND);
      this.logger.log(`ingest ${projectId}: ${seconds.toFixed(1)} s of audio from ${fileNameOf(sentName)}; probe ${probedAt - started} ms, decode and analysis ${Date.now() - probedAt} ms`);
      return { project: toProject(project), analysis: { bpm: analysis.bpm, key: analysis.key }, job };
    } catch (error) {
      if (created) await this.deleteProject.execute(ownerId, projectId).catch(() => undefined);
      await this.storage.removePrefix(projectPrefix(ownerId, projectId)).catch(() => undefined);
      throw error;
    } finally {
      releaseMemory();
    }
  }

  /** The project as soon as the file is known to be a song: analysis fields follow when the decode ends. */
  private createProject({ ownerId, projectId, objectKey, fileName: sentName }: IngestUploadRequest, probe: MediaProbe, audioKey: string): Promise<ProjectDocument> {
    const fileName = fileNameOf(sentName);
    const isVideo = probe.hasVideo;
    return this.projects.create({
      _id: projectId,
      ownerId,
      name: projectNameOf(fileName),
      originalFile: fileName,
      duration: Math.round(probe.durationSeconds * 1000) / 1000,
      bpm: null,
      key: null,
      source: isVideo ? 'video' : 'audio',
      originalKey: objectKey,
      audioKey,
      audioContentType: isVideo ? 'audio/flac' : contentTypeOf(probe),
      analysis: null,
      activeEngine: null,
      createdAt: new Date(),
    });
  }

  /** Decides by content: not media at all → 415; media-looking but unreadable, or no audio track → 422. */
  private async probe(objectKey: string, url: string): Promise<MediaProbe> {
    // An empty file is unreadable media, not a storage error: a ranged read of 0 bytes is refused by S3.
    if (!(await this.storage.stat(objectKey))?.size) throw new RpcFailure(422, UNREADABLE);
    let probe: MediaProbe;
    try {
      probe = await this.tools.probe(url);
    } catch {
      const head = await this.readHead(objectKey);
      throw new RpcFailure(looksLikeMedia(head) ? 422 : 415, looksLikeMedia(head) ? UNREADABLE : NOT_MEDIA);
    }
    if (isStillImage(probe) || (!probe.audio && !probe.hasVideo)) throw new RpcFailure(415, NOT_MEDIA);
    if (!probe.audio) throw new RpcFailure(422, NO_SOUND);
    return probe;
  }

  /**
   * One streamed decode into the analysis (memory bounded whatever the length). As soon as it has a
   * quarter of a second of sound (or the file ended with less: refused here, before anything exists),
   * `enoughSound` runs; the rest of the decode waits for it.
   */
  private async decodeAndAnalyse(url: string, probe: MediaProbe, objectKey: string, enoughSound: () => Promise<void>) {
    const sampleRate = probe.audio!.sampleRate;
    const expectedFrames = Math.round(probe.durationSeconds * sampleRate);
    const analysis = new StreamingAnalysis(sampleRate, expectedFrames);
    const minimum = MIN_AUDIO_SECONDS * sampleRate;
    let announced = false;
    const announce = async () => {
      if (analysis.length === 0) throw new RpcFailure(422, UNREADABLE);
      if (analysis.length < minimum) throw new RpcFailure(422, TOO_SHORT);
      announced = true;
      await enoughSound();
    };
    const chunks = this.tools.decodeStream(url, probe)[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<StereoAudio>;
        try {
          next = await chunks.next();
        } catch (error) {
          // Only the decode's own failures mean the file is unreadable (not the project's creation).
          this.logger.warn(`decode failed for ${objectKey}: ${(error as Error).message}`);
          throw new RpcFailure(422, UNREADABLE);
        }
        if (next.done) break;
        analysis.push(next.value);
        if (!announced && analysis.length >= minimum) await announce();
      }
    } finally {
      await chunks.return?.(undefined);
    }
    if (!announced) await announce();
    return { analysis: analysis.finish(), frames: analysis.length, sampleRate };
  }

  private async readHead(objectKey: string): Promise<Buffer> {
    const stream = await this.storage.read(objectKey, 0, 16);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async extractAudio(url: string, audioKey: string): Promise<void> {
    const { stream, done } = this.tools.extractAudioTrack(url);
    try {
      await Promise.all([this.storage.putStream(audioKey, stream, 'audio/flac'), done]);
    } catch (error) {
      this.logger.warn(`audio extraction failed: ${(error as Error).message}`);
      throw new RpcFailure(422, UNREADABLE);
    }
  }
}

/** The content type the player is served for an audio upload, from what ffprobe found (not what the client said). */
function contentTypeOf(probe: MediaProbe): string {
  const format = probe.formatName.split(',')[0];
  const byFormat: Record<string, string> = {
    wav: 'audio/wav',
    mp3: 'audio/mpeg',
    flac: 'audio/flac',
    ogg: 'audio/ogg',
    mov: 'audio/mp4',
    aac: 'audio/aac',
    matroska: 'audio/webm',
    aiff: 'audio/aiff',
  };
  return byFormat[format] ?? 'application/octet-stream';
}
