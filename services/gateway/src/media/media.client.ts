import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import {
  AnalysisReply,
  CreateProjectBody,
  DeleteProjectReply,
  EngineName,
  IngestUploadReply,
  IngestUploadRequest,
  ListEnginesReply,
  ListProjectsReply,
  ListStemsReply,
  ListStemsRequest,
  MEDIA_SUBJECTS,
  ObjectLocationReply,
  ProjectReply,
  type Reply,
  RenameProjectBody,
  SeparationJobReply,
  StemAudioRequest,
  StemReply,
  StemVersion,
  UpdateStemBody,
  UpdateStemRequest,
} from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { callService } from '../nats/service-call';
import { withStemUrl } from '../stems/stem-url';

/**
 * Ingest answers after the content check (probe and the first quarter second of sound), which media gives
 * up on after 45 s; waiting longer than that means media never got the upload.
 */
const INGEST_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 10_000;
const DELETE_TIMEOUT_MS = 60_000;

/**
 * The gateway's only way to the media service: one method per subject, replies validated against
 * proto/, and a service's expected failure (404, 409, 415, ...) rethrown as a DomainError with its status.
 */
@Injectable()
export class MediaClient {
  constructor(private readonly rpc: NatsRpcClient) {}

  ingestUpload(request: IngestUploadRequest) {
    return this.call(MEDIA_SUBJECTS.ingestUpload, request, IngestUploadReply, INGEST_TIMEOUT_MS);
  }

  createProject(ownerId: string, body: CreateProjectBody) {
    return this.call(MEDIA_SUBJECTS.createProject, { ownerId, ...body }, ProjectReply);
  }

  listProjects(ownerId: string) {
    return this.call(MEDIA_SUBJECTS.listProjects, { ownerId }, ListProjectsReply);
  }

  getProject(ownerId: string, projectId: string) {
    return this.call(MEDIA_SUBJECTS.getProject, { ownerId, projectId }, ProjectReply);
  }

  renameProject(ownerId: string, projectId: string, body: RenameProjectBody) {
    return this.call(MEDIA_SUBJECTS.renameProject, { ownerId, projectId, ...body }, ProjectReply);
  }

  /** Deleting removes many objects from storage: allow it more time than a read. */
  deleteProject(ownerId: string, projectId: string) {
    return this.call(MEDIA_SUBJECTS.deleteProject, { ownerId, projectId }, DeleteProjectReply, DELETE_TIMEOUT_MS);
  }

  projectAudio(ownerId: string, projectId: string) {
    return this.call(MEDIA_SUBJECTS.projectAudio, { ownerId, projectId }, ObjectLocationReply);
  }

  projectAnalysis(ownerId: string, projectId: string) {
    return this.call(MEDIA_SUBJECTS.projectAnalysis, { ownerId, projectId }, AnalysisReply);
  }

  async listStems(ownerId: string, projectId: string, engine?: EngineName) {
    const request: ListStemsRequest = { ownerId, projectId, engine };
    return (await this.call(MEDIA_SUBJECTS.listStems, request, ListStemsReply)).map(withStemUrl);
  }

  /** Stores a mixer change; media publishes `stem_updated`, which skips the live connection `origin` (the one that made it). */
  async updateStem(ownerId: string, stemId: string, changes: UpdateStemBody, origin: string | null = null) {
    const request: UpdateStemRequest = { ownerId, stemId, changes, origin };
    return withStemUrl(await this.call(MEDIA_SUBJECTS.updateStem, request, StemReply));
  }

  /** Where a stem's audio is: `version`'s, or the version it plays when absent. */
  stemAudio(ownerId: string, stemId: string, version?: StemVersion) {
    const request: StemAudioRequest = { ownerId, stemId, version };
    return this.call(MEDIA_SUBJECTS.stemAudio, request, ObjectLocationReply);
  }

  requestSeparation(ownerId: string, projectId: string, engine: EngineName) {
    return this.call(MEDIA_SUBJECTS.requestSeparation, { ownerId, projectId, engine }, SeparationJobReply);
  }

  listEngines() {
    return this.call(MEDIA_SUBJECTS.listEngines, {}, ListEnginesReply);
  }

  private call<T>(subject: string, payload: unknown, schema: ZodType<Reply<T>>, timeoutMs = QUERY_TIMEOUT_MS): Promise<T> {
    return callService(this.rpc, subject, payload, schema, timeoutMs);
  }
}
