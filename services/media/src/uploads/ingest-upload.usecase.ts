import { Injectable, Logger } from '@nestjs/common';
import { MediaProbe, StreamingAnalysis, type StereoAudio } from '@stemdeck/audio';
import { ObjectStorageAdapter, RpcFailure } from '@stemdeck/platform';
import type { IngestUploadRequest, Project, SeparationJob } from '@stemdeck/proto';
import { CACHED_AUDIO_MAX_SECONDS, DecodedAudioCache } from '../media-tools/decoded-audio.cache';
import { isStillImage, looksLikeMedia, MediaToolsAdapter } from '../media-tools/media-tools.adapter';
import { ProjectRepository, toProject } from '../projects/project.repository';
import { ProjectDocument } from '../projects/project.schema';
import { releaseMemory } from '../release-memory';
import { RequestSeparationUseCase } from '../separation/request-separation.usecase';
import { extractedAudioKey, projectPrefix } from '@stemdeck/proto';

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

/** Longest project name (renames are held to the same). */
const MAX_NAME_LENGTH = 120;

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
  return [...name].slice(0, MAX_NAME_LENGTH).join('').trim();
};

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
    } finally {
      releaseMemory();
    }
  }

  private async createProject({ ownerId, projectId, objectKey, fileName: sentName }: IngestUploadRequest): Promise<ProjectDocument> {
    const fileName = fileNameOf(sentName);
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
    const { analysis, frames, sampleRate } = await this.decodeAndAnalyse(url, probe, audioKey, objectKey);
    const seconds = frames / sampleRate;
    this.logger.log(`ingest ${projectId}: ${seconds.toFixed(1)} s of audio; probe ${probedAt - started} ms, decode and analysis ${Date.now() - probedAt} ms`);
    return this.projects.create({
      _id: projectId,
      ownerId,
      name: projectNameOf(fileName),
      originalFile: fileName,
      duration: Math.round(seconds * 1000) / 1000,
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
   * One streamed decode: every chunk goes to the analysis (memory bounded whatever the length) and, for a
   * song short enough, into the decoded-audio cache so this replica's separation job starts without
   * decoding again. A long recording is never held whole.
   */
  private async decodeAndAnalyse(url: string, probe: MediaProbe, audioKey: string, objectKey: string) {
    const sampleRate = probe.audio!.sampleRate;
    const expectedFrames = Math.round(probe.durationSeconds * sampleRate);
    const analysis = new StreamingAnalysis(sampleRate, expectedFrames);
    const keep = probe.durationSeconds > 0 && probe.durationSeconds <= CACHED_AUDIO_MAX_SECONDS ? ([] as StereoAudio[]) : null;
    try {
      for await (const chunk of this.tools.decodeStream(url, probe)) {
        analysis.push(chunk);
        keep?.push(chunk);
        if (keep && analysis.length > CACHED_AUDIO_MAX_SECONDS * sampleRate * 1.1) keep.length = 0;
      }
    } catch (error) {
      this.logger.warn(`decode failed for ${objectKey}: ${(error as Error).message}`);
      throw new RpcFailure(422, UNREADABLE);
    }
    if (analysis.length === 0) throw new RpcFailure(422, UNREADABLE);
    if (analysis.length < MIN_AUDIO_SECONDS * sampleRate) throw new RpcFailure(422, TOO_SHORT);
    if (keep && keep.length > 0) this.decoded.put(audioKey, concatenate(keep, sampleRate));
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

function concatenate(chunks: StereoAudio[], sampleRate: number): StereoAudio {
  const frames = chunks.reduce((total, chunk) => total + chunk.left.length, 0);
  const audio: StereoAudio = { sampleRate, left: new Float32Array(frames), right: new Float32Array(frames) };
  let at = 0;
  for (const chunk of chunks) {
    audio.left.set(chunk.left, at);
    audio.right.set(chunk.right, at);
    at += chunk.left.length;
  }
  return audio;
}
