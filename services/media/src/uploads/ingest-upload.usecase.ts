import { Injectable, Logger } from '@nestjs/common';
import { analyzeAudio, MediaProbe } from '@stemdeck/audio';
import { ObjectStorageAdapter, RpcFailure } from '@stemdeck/platform';
import type { IngestUploadRequest, Project, SeparationJob } from '@stemdeck/proto';
import { DecodedAudioCache } from '../media-tools/decoded-audio.cache';
import { isStillImage, looksLikeMedia, MediaToolsAdapter } from '../media-tools/media-tools.adapter';
import { ProjectRepository, toProject } from '../projects/project.repository';
import { ProjectDocument } from '../projects/project.schema';
import { RequestSeparationUseCase } from '../separation/request-separation.usecase';
import { extractedAudioKey, projectPrefix } from '@stemdeck/proto';

export const NOT_MEDIA = 'Please upload an audio or video file';
export const UNREADABLE = 'The selected file could not be processed';

export interface IngestResult {
  project: Project;
  analysis: { bpm: number; key: string };
  job: SeparationJob | null;
}

/** "My Song.final.mp3" → "My Song.final" */
const projectNameOf = (fileName: string): string => fileName.replace(/\.[^./\\]{1,8}$/, '').trim() || fileName;

/**
 * Turns an uploaded object into a project: probe by content, decode, analyse (tempo, key, loudness,
 * features), extract a video's audio track, create the project, queue the `fast` separation. Nothing is
 * half-written: on any failure the project's objects are removed and no document remains.
 */
@Injectable()
export class IngestUploadUseCase {
  private readonly logger = new Logger(IngestUploadUseCase.name);

  constructor(
    private readonly storage: ObjectStorageAdapter,
    private readonly tools: MediaToolsAdapter,
    private readonly projects: ProjectRepository,
    private readonly separation: RequestSeparationUseCase,
    private readonly decoded: DecodedAudioCache,
  ) {}

  async execute(request: IngestUploadRequest): Promise<IngestResult> {
    const { ownerId, projectId } = request;
    let created = false;
    try {
      const project = await this.createProject(request);
      created = true;
      const job = await this.separation.execute({ ownerId, projectId, engine: 'fast' });
      return { project: toProject(project), analysis: { bpm: project.bpm ?? 120, key: project.key ?? 'C major' }, job };
    } catch (error) {
      if (created) await this.projects.deleteOwned(ownerId, projectId);
      await this.storage.removePrefix(projectPrefix(ownerId, projectId)).catch(() => undefined);
      throw error;
    }
  }

  private async createProject({ ownerId, projectId, objectKey, fileName }: IngestUploadRequest): Promise<ProjectDocument> {
    const started = Date.now();
    const url = await this.storage.presignedReadUrl(objectKey);
    const probe = await this.probe(objectKey, url);
    const probedAt = Date.now();
    const isVideo = probe.hasVideo;
    let audioKey = objectKey;
    let audioContentType = contentTypeOf(probe);
    if (isVideo) {
      audioKey = extractedAudioKey(ownerId, projectId);
      audioContentType = 'audio/flac';
      await this.extractAudio(url, audioKey);
    }
    const audio = await this.tools.decode(url, probe).catch((error: Error) => {
      this.logger.warn(`decode failed for ${objectKey}: ${error.message}`);
      throw new RpcFailure(422, UNREADABLE);
    });
    if (audio.left.length === 0) throw new RpcFailure(422, UNREADABLE);
    const decodedAt = Date.now();
    const analysis = analyzeAudio(audio);
    this.decoded.put(audioKey, audio);
    this.logger.log(
      `ingest ${projectId}: ${(audio.left.length / audio.sampleRate).toFixed(1)} s of audio; probe ${probedAt - started} ms, ` +
        `decode ${decodedAt - probedAt} ms, analysis ${Date.now() - decodedAt} ms`,
    );
    return this.projects.create({
      _id: projectId,
      ownerId,
      name: projectNameOf(fileName),
      originalFile: fileName,
      duration: Math.round((audio.left.length / audio.sampleRate) * 1000) / 1000,
      bpm: analysis.bpm,
      key: analysis.key,
      source: isVideo ? 'video' : 'audio',
      originalKey: objectKey,
      audioKey,
      audioContentType,
      analysis: { loudnessLufs: analysis.loudnessLufs, spotifyFeatures: analysis.spotifyFeatures },
      activeEngine: null,
      createdAt: new Date(),
    });
  }

  /** Decides by content: not media at all → 415; media-looking but unreadable, or no audio track → 422. */
  private async probe(objectKey: string, url: string): Promise<MediaProbe> {
    let probe: MediaProbe;
    try {
      probe = await this.tools.probe(url);
    } catch {
      const head = await this.readHead(objectKey);
      throw new RpcFailure(looksLikeMedia(head) ? 422 : 415, looksLikeMedia(head) ? UNREADABLE : NOT_MEDIA);
    }
    if (isStillImage(probe) || (!probe.audio && !probe.hasVideo)) throw new RpcFailure(415, NOT_MEDIA);
    if (!probe.audio) throw new RpcFailure(422, UNREADABLE);
    return probe;
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
