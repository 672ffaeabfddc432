import { Inject, Injectable } from '@nestjs/common';
import { ID_GENERATOR, type IdGenerator, ObjectStorageAdapter } from '@stemdeck/platform';
import { MAX_UPLOAD_BYTES, originalKey } from '@stemdeck/proto';
import busboy from 'busboy';
import type { Request } from 'express';
import { PassThrough } from 'node:stream';
import { DomainError } from '../errors/domain-error';
import { quotaExceededMessage, type UploadUsage } from '../limits/storage-quota';

/** Two upload forms exist in the product: one names the file field `audio`, the other `file`; both are taken. */
export const UPLOAD_FIELDS = new Set(['audio', 'file']);
export const TOO_LARGE = `File is larger than ${MAX_UPLOAD_BYTES} bytes`;
/** Multipart framing around the file (boundaries, part headers, small fields). */
const MULTIPART_SLACK_BYTES = 1024 * 1024;
/**
 * What a browser's form adds around the file (a boundary, the part's headers and the closing boundary: a few
 * hundred bytes): a declared length over what is left by more than this cannot fit.
 */
export const FRAMING_BYTES = 16 * 1024;

/** 413: over the upload limit, or (with its own message) over what is left of the user's storage. */
export class UploadTooLargeError extends DomainError {
  constructor(message = TOO_LARGE) {
    super(413, message);
  }
}

/** An uploaded file, stored whole in object storage under a new project's prefix. */
export interface StoredUpload {
  projectId: string;
  objectKey: string;
  fileName: string;
  sizeBytes: number;
}

/**
 * The HTTP side of an upload: parses the multipart body and streams its file straight into object storage
 * (never held in memory, never written twice), counting bytes as they pass: over 500 MB the upload is cut
 * off and its incomplete object discarded. A malformed, empty or aborted upload leaves nothing behind.
 */
@Injectable()
export class MultipartUploadAdapter {
  constructor(
    private readonly storage: ObjectStorageAdapter,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * Refuses (400/413) what cannot be an upload before anything else happens: not multipart, or a declared
   * length over the upload limit. Answers the declared length (NaN when the request has none).
   */
  check(req: Request): number {
    if (!req.headers['content-type']?.startsWith('multipart/form-data')) {
      throw new DomainError(400, 'Expected a multipart/form-data upload with a file field named "audio" or "file"');
    }
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_UPLOAD_BYTES + MULTIPART_SLACK_BYTES) throw new UploadTooLargeError();
    return declared;
  }

  /**
   * The request's file, stored; refused (400/413) before anything is stored when the request is not an
   * upload or declares more bytes than `usage` has left, and cut off (413, nothing kept) the moment the file
   * passes the upload limit or what is left.
   */
  store(ownerId: string, req: Request, usage: UploadUsage): Promise<StoredUpload> {
    const declared = this.check(req);
    if (declared - FRAMING_BYTES > usage.remainingBytes) throw new UploadTooLargeError(quotaExceededMessage(usage, declared));
    return this.storeFile(ownerId, req, usage);
  }

  private storeFile(ownerId: string, req: Request, usage: UploadUsage): Promise<StoredUpload> {
    // A client that went away before the body was read (while its room was being opened) sends no more: its
    // 'aborted' has already passed, and piping a destroyed request would wait for ever.
    if (req.destroyed || req.readableAborted) return Promise.reject(new DomainError(400, 'Upload aborted'));
    // The file may take the upload limit or what is left of the user's storage, whichever is less.
    const quotaBound = usage.remainingBytes < MAX_UPLOAD_BYTES;
    const fileLimit = quotaBound ? usage.remainingBytes : MAX_UPLOAD_BYTES;
    return new Promise<StoredUpload>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        // busboy reports the limit when a file reaches it; one byte more lets a file of exactly the limit through.
        // Browsers and fetch send the file name as raw UTF-8 (emoji, accents); busboy would read it as Latin-1.
        // Without preservePath busboy keeps only the last path segment, so "../x.mp3" arrives as "x.mp3".
        parser = busboy({
          headers: req.headers,
          defParamCharset: 'utf8',
          limits: { files: 1, fileSize: fileLimit + 1, fields: 20, fieldSize: 64 * 1024 },
        });
      } catch {
        return reject(new DomainError(400, 'Malformed multipart upload'));
      }
      let stored: Promise<StoredUpload> | undefined;
      let body: PassThrough | undefined;
      let failed: Error | undefined;
      // Answer only once the object write has settled, so a failed upload's parts are already gone.
      const fail = (error: Error) => {
        if (failed) return;
        failed = error;
        req.unpipe(parser);
        // Ends the storage write with the error; putStream then aborts its multipart upload.
        body?.destroy(error);
        // putStream discards its own incomplete upload; a completed one is removed here.
        const settled = stored ? stored.then((upload) => this.storage.discard(upload.objectKey), () => undefined) : Promise.resolve();
        void settled.finally(() => reject(error));
      };

      parser.on('file', (field, file, info) => {
        if (!UPLOAD_FIELDS.has(field) || stored) {
          file.resume();
          return;
        }
        const projectId = this.ids.randomUUID();
        const objectKey = originalKey(ownerId, projectId);
        const fileBody = new PassThrough();
        body = fileBody;
        let sizeBytes = 0;
        file.on('data', (chunk: Buffer) => (sizeBytes += chunk.length));
        file.on('limit', () => fail(new UploadTooLargeError(quotaBound ? quotaExceededMessage(usage) : TOO_LARGE)));
        file.on('error', (error: Error) => fail(error));
        file.pipe(fileBody);
        stored = this.storage
          .putStream(objectKey, fileBody)
          .then(() => ({ projectId, objectKey, fileName: info.filename || 'upload', sizeBytes }));
        stored.catch((error: Error) => fail(error));
      });
      parser.on('error', (error: Error) => fail(new DomainError(400, `Malformed multipart upload: ${error.message}`)));
      parser.on('close', () => {
        if (failed) return;
        if (!stored) return fail(new DomainError(400, 'No file in the upload: send it in a field named "audio" or "file"'));
        stored.then(resolve, () => undefined);
      });
      // A client that goes away mid-upload: the body stops, the partial object is discarded.
      req.on('aborted', () => fail(new DomainError(400, 'Upload aborted')));
      req.pipe(parser);
    });
  }
}
