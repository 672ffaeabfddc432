import { Injectable } from '@nestjs/common';
import { NatsRpcClient } from '@stemdeck/platform';
import {
  CreatedShareLinkReply,
  EXPORT_SUBJECTS,
  ExportListReply,
  ExportOptionsReply,
  ExportReply,
  ObjectLocationReply,
  ResolvedShareLinkReply,
  ShareLinkListReply,
  ShareLinkReply,
  type AudioExportBody,
  type CreateShareLinkBody,
  type ProjectExportBody,
  type Reply,
} from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { callService } from '../nats/service-call';

/** Creating an export asks media (and jobs) about the project first. */
const CREATE_TIMEOUT_MS = 20_000;
const QUERY_TIMEOUT_MS = 10_000;

/**
 * The gateway's way to the export service: one method per subject, replies validated against proto/, a
 * service's expected failure (400, 404, 409, 410) rethrown as a DomainError with its status.
 */
@Injectable()
export class ExportClient {
  constructor(private readonly rpc: NatsRpcClient) {}

  createAudioExport(ownerId: string, body: AudioExportBody) {
    return this.call(EXPORT_SUBJECTS.createAudioExport, { ownerId, body }, ExportReply, CREATE_TIMEOUT_MS);
  }

  createProjectExport(ownerId: string, body: ProjectExportBody) {
    return this.call(EXPORT_SUBJECTS.createProjectExport, { ownerId, body }, ExportReply, CREATE_TIMEOUT_MS);
  }

  getExport(ownerId: string, exportId: string) {
    return this.call(EXPORT_SUBJECTS.getExport, { ownerId, exportId }, ExportReply);
  }

  /** The owner's exports of the project still being built or waiting (with their places in line), oldest first. */
  runningExports(ownerId: string, projectId: string) {
    return this.call(EXPORT_SUBJECTS.runningExports, { ownerId, projectId }, ExportListReply);
  }

  exportDownload(ownerId: string, exportId: string) {
    return this.call(EXPORT_SUBJECTS.exportDownload, { ownerId, exportId }, ObjectLocationReply);
  }

  exportOptions(ownerId: string, projectId: string) {
    return this.call(EXPORT_SUBJECTS.exportOptions, { ownerId, projectId }, ExportOptionsReply, CREATE_TIMEOUT_MS);
  }

  createShareLink(ownerId: string, projectId: string, body: CreateShareLinkBody) {
    return this.call(EXPORT_SUBJECTS.createShareLink, { ownerId, projectId, body }, CreatedShareLinkReply);
  }

  listShareLinks(ownerId: string, projectId: string) {
    return this.call(EXPORT_SUBJECTS.listShareLinks, { ownerId, projectId }, ShareLinkListReply);
  }

  revokeShareLink(ownerId: string, linkId: string) {
    return this.call(EXPORT_SUBJECTS.revokeShareLink, { ownerId, linkId }, ShareLinkReply);
  }

  resolveShareLink(token: string) {
    return this.call(EXPORT_SUBJECTS.resolveShareLink, { token }, ResolvedShareLinkReply);
  }

  private call<T>(subject: string, payload: unknown, schema: ZodType<Reply<T>>, timeoutMs = QUERY_TIMEOUT_MS): Promise<T> {
    return callService(this.rpc, subject, payload, schema, timeoutMs);
  }
}
