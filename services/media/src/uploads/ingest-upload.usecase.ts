import { Inject, Injectable, Logger } from '@nestjs/common';
import type { MediaProbe } from '@stemdeck/audio';
import { annotateSpan, CLOCK, type Clock, inSpan, RpcFailure, SPAN_ATTRIBUTES } from '@stemdeck/platform';
import type { IngestUploadAnswer, IngestUploadRequest } from '@stemdeck/proto';
import { PROJECT_NAME_MAX, projectPrefix } from '@stemdeck/proto';
import { isStillImage, looksLikeMedia } from '../media-tools/media-tools.adapter';
import { PROJECT_STORE, type ProjectStore } from '../projects/project.ports';
import { toProject } from '../projects/project.repository';
import type { ProjectDocument } from '../projects/project.schema';
import { SEPARATION_MEDIA_TOOLS } from '../separation/separation.ports';
import {
  FIRST_JOB,
  PROJECT_REMOVAL,
  UPLOAD_STORAGE,
  type ContentTools,
  type FirstJob,
  type ProjectRemoval,
  type UploadStorage,
} from './ingest.ports';

export const NOT_MEDIA = 'Please upload an audio or video file';
export const UNREADABLE = 'The selected file could not be processed';
export const NO_SOUND = 'The selected video has no audio track';
export const TOO_SHORT = 'The selected file is too short to split into stems (under a quarter of a second)';
/** Shorter than this there is nothing to hear, let alone separate: one STFT window of the fast engine is 93 ms. */
export const MIN_AUDIO_SECONDS = 0.25;

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

/** The content check gives up after this (the gateway waits a little longer for the answer, then discards the upload). */
export const CONTENT_CHECK_MS = 45_000;

/**
 * Turns an uploaded object into a project, answering while the uploader waits only what the file's content
 * decides: probe it (not media → 415; unreadable, no audio track → 422), decode until there is a quarter of
 * a second of sound (an empty or too short recording → 422), then create the project and queue its first
 * job. That durable job owns everything derived from the file: it extracts a video's audio track, analyses
 * the recording on the decode it separates, announces the analysis (`project_analysed`) and stores the stems.
 * Nothing is half-written: a refused upload leaves no object; a project that could not get its job is removed.
 */
@Injectable()
export class IngestUploadUseCase {
  private readonly logger = new Logger(IngestUploadUseCase.name);

  constructor(
    @Inject(UPLOAD_STORAGE) private readonly storage: UploadStorage,
    @Inject(SEPARATION_MEDIA_TOOLS) private readonly tools: ContentTools,
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'create'>,
    @Inject(FIRST_JOB) private readonly firstJob: FirstJob,
    @Inject(PROJECT_REMOVAL) private readonly deleteProject: ProjectRemoval,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(request: IngestUploadRequest): Promise<IngestUploadAnswer> {
    const { ownerId, projectId, objectKey, fileName } = request;
    let created = false;
    annotateSpan({ [SPAN_ATTRIBUTES.projectId]: projectId });
    try {
      const started = this.clock.now();
      const probe = await withDeadline(inSpan('media.ingest.check', { [SPAN_ATTRIBUTES.projectId]: projectId }, () => this.checkContent(objectKey)), CONTENT_CHECK_MS);
      const project = await inSpan('media.ingest.project', { [SPAN_ATTRIBUTES.projectId]: projectId }, () => this.createProject(request, probe));
      created = true;
      const job = await this.firstJob.execute({ ownerId, projectId, engine: 'fast' });
      this.logger.log(`ingest ${projectId}: ${fileNameOf(fileName)} checked and queued in ${this.clock.now() - started} ms`);
      return { project: toProject(project), job };
    } catch (error) {
      if (created) await this.deleteProject.execute(ownerId, projectId).catch(() => undefined);
      else await this.storage.removePrefix(projectPrefix(ownerId, projectId)).catch(() => undefined);
      throw error;
    }
  }

  /** The project as soon as the file is known to be a song: tempo, key and exact length come from its job. */
  private createProject({ ownerId, projectId, objectKey, fileName: sentName }: IngestUploadRequest, probe: MediaProbe): Promise<ProjectDocument> {
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
      // A video's audio track is extracted by the job; until then the project has no audio to play.
      audioKey: isVideo ? null : objectKey,
      audioContentType: isVideo ? 'audio/flac' : contentTypeOf(probe),
      // The job reads this same object: it can start decoding without probing it again (a video's extracted track is new).
      audioProbe: isVideo ? null : probe,
      analysis: null,
      activeEngine: null,
      createdAt: new Date(this.clock.now()),
    });
  }

  /**
   * Decides by content: not media at all → 415; media-looking but unreadable, or no audio track → 422;
   * readable but with less than a quarter of a second of sound → 422.
   */
  private async checkContent(objectKey: string): Promise<MediaProbe> {
    // An empty file is unreadable media, not a storage error: a ranged read of 0 bytes is refused by S3.
    const size = (await this.storage.stat(objectKey))?.size;
    annotateSpan({ [SPAN_ATTRIBUTES.bytes]: size ?? 0 });
    if (!size) throw new RpcFailure(422, UNREADABLE);
    const url = await this.storage.presignedReadUrl(objectKey);
    let probe: MediaProbe;
    try {
      probe = await this.tools.probe(url);
    } catch {
      const head = await this.readHead(objectKey);
      throw new RpcFailure(looksLikeMedia(head) ? 422 : 415, looksLikeMedia(head) ? UNREADABLE : NOT_MEDIA);
    }
    if (isStillImage(probe) || (!probe.audio && !probe.hasVideo)) throw new RpcFailure(415, NOT_MEDIA);
    if (!probe.audio) throw new RpcFailure(422, NO_SOUND);
    annotateSpan({ [SPAN_ATTRIBUTES.audioSeconds]: probe.durationSeconds, 'stemdeck.media.video': probe.hasVideo });
    await this.checkSound(url, probe, objectKey);
    return probe;
  }

  /** Decodes until a quarter of a second of sound has come out (then stops the decode), or the file ends short. */
  private async checkSound(url: string, probe: MediaProbe, objectKey: string): Promise<void> {
    const minimum = MIN_AUDIO_SECONDS * probe.audio!.sampleRate;
    let frames = 0;
    try {
      for await (const chunk of this.tools.decodeStream(url, probe)) {
        frames += chunk.left.length;
        if (frames >= minimum) return;
      }
    } catch (error) {
      this.logger.warn(`decode failed for ${objectKey}: ${(error as Error).message}`);
      throw new RpcFailure(422, UNREADABLE);
    }
    throw new RpcFailure(422, frames === 0 ? UNREADABLE : TOO_SHORT);
  }

  private async readHead(objectKey: string): Promise<Buffer> {
    const stream = await this.storage.read(objectKey, 0, 16);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }
}

/** The check's answer, or 422 once it has taken longer than `ms` (a file that takes that long is not one we can read). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RpcFailure(422, UNREADABLE)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
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
