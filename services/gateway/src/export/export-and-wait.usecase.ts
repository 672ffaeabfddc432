import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AudioExportBody, ExportAnswer, ExportRecord, ProjectExportBody } from '@stemdeck/proto';
import { DomainError } from '../errors/domain-error';
import { ExportClient } from './export.client';

/** How often a waiting request reads its export. */
export const EXPORT_POLL_MS = 250;
/** How long a request waits for its export (a 4-minute song's mp3 stems take seconds; a queue behind others longer). */
export const EXPORT_WAIT_LIMIT_MS = 4 * 60_000;
export const EXPORT_STILL_RUNNING = 'The export is taking longer than expected — try again in a moment';
const FAILURE_WORDS = { audio: 'Failed to export audio files', project: 'Failed to export project data' } as const;

/** Where a finished export is downloaded. */
export const downloadUrlOf = (exportId: string): string => `/api/exports/${encodeURIComponent(exportId)}/download`;

/** What the wait needs: the export client's create and read calls. */
export type ExportCalls = Pick<ExportClient, 'createAudioExport' | 'createProjectExport' | 'getExport'>;

/** The wait's pace and its clock (the unit spec runs it in a few milliseconds). */
export interface WaitTiming {
  pollMs: number;
  limitMs: number;
  now(): number;
  sleep(ms: number): Promise<void>;
}
/** Bound only by the unit spec; the service runs on realTiming. */
export const EXPORT_WAIT_TIMING = Symbol('ExportWaitTiming');
const realTiming: WaitTiming = {
  pollMs: EXPORT_POLL_MS,
  limitMs: EXPORT_WAIT_LIMIT_MS,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * POST /api/export/*: asks the export service for the export (its refusals — 400, 404, 409 — answer as they
 * are), then reads it every EXPORT_POLL_MS until it completes and answers its name and download url, as the
 * panels expect one answer with the file. A failed export answers 500 with its words (one refused while it was
 * built, e.g. 409 not analysed yet, its own status and words); one still running after
 * EXPORT_WAIT_LIMIT_MS answers 504 (it goes on; GET /api/exports/:id follows it). A read the export service
 * did not answer (it restarts; the durable queue redelivers the export) is tried again at the next poll. A
 * request whose client went away stops reading.
 */
@Injectable()
export class ExportAndWaitUseCase {
  private readonly timing: WaitTiming;

  constructor(
    @Inject(ExportClient) private readonly exports: ExportCalls,
    @Optional() @Inject(EXPORT_WAIT_TIMING) timing?: WaitTiming,
  ) {
    this.timing = timing ?? realTiming;
  }

  async audio(ownerId: string, body: AudioExportBody, signal?: AbortSignal): Promise<ExportAnswer> {
    return this.waitFor(ownerId, await this.exports.createAudioExport(ownerId, body), signal);
  }

  async project(ownerId: string, body: ProjectExportBody, signal?: AbortSignal): Promise<ExportAnswer> {
    return this.waitFor(ownerId, await this.exports.createProjectExport(ownerId, body), signal);
  }

  private async waitFor(ownerId: string, created: ExportRecord, signal?: AbortSignal): Promise<ExportAnswer> {
    const until = this.timing.now() + this.timing.limitMs;
    let record = created;
    while (record.status === 'processing') {
      if (this.timing.now() >= until) throw new DomainError(504, EXPORT_STILL_RUNNING);
      await this.timing.sleep(this.timing.pollMs);
      signal?.throwIfAborted();
      // A read that did not get an answer (the export service restarting) is read again; its refusals are final.
      record = await this.exports.getExport(ownerId, record.id).catch((error: unknown) => {
        if (error instanceof DomainError) throw error;
        return record;
      });
    }
    // A refusal met while it was built (409: the song is not analysed yet, …) answers with its own status.
    if (record.status === 'failed') throw new DomainError(record.error ? (record.errorStatus ?? 500) : 500, record.error ?? FAILURE_WORDS[record.kind]);
    return { id: record.id, filename: record.filename, downloadUrl: downloadUrlOf(record.id), expiresAt: record.expiresAt };
  }
}
