import { Client } from 'minio';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { countStorageWrite } from './metrics';

/** Streams are uploaded in parts of this size (S3's minimum is 5 MiB), so memory stays flat however large the file. */
const STREAM_PART_BYTES = 8 * 1024 * 1024;

export interface StoredObjectInfo {
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface ObjectStorageConfig {
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  S3_REGION: string;
}

/** The one place that talks to S3-compatible object storage (MinIO locally). */
export class ObjectStorageAdapter {
  readonly bucket: string;
  private readonly client: Client;

  constructor(config: ObjectStorageConfig) {
    const endpoint = new URL(config.S3_ENDPOINT);
    this.bucket = config.S3_BUCKET;
    this.client = new Client({
      endPoint: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : undefined,
      useSSL: endpoint.protocol === 'https:',
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      region: config.S3_REGION,
      pathStyle: true,
    });
  }

  /**
   * Uploads a stream of unknown length part by part (S3 multipart), reading the next part only after the
   * previous one is stored: memory stays at about one part however large the file, and a slow store slows
   * the reader (backpressure). When the stream fails — a client abort, a size limit — the multipart upload
   * is aborted, so no parts linger. Small streams become a single PUT.
   */
  async putStream(key: string, body: AsyncIterable<Buffer>, contentType = 'application/octet-stream'): Promise<void> {
    // One part buffer per upload, refilled after each part is stored: no per-part allocations for the
    // garbage collector to chase while hundreds of megabytes pass through.
    const part = Buffer.allocUnsafe(STREAM_PART_BYTES);
    let filled = 0;
    let uploadId: string | undefined;
    const parts: Array<{ part: number; etag: string }> = [];
    let written = 0;
    const uploadPart = async () => {
      uploadId ??= await this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType });
      const partNumber = parts.length + 1;
      const { etag } = await this.client.uploadPart(
        { bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber, headers: { 'Content-Length': filled } },
        part.subarray(0, filled),
      );
      parts.push({ part: partNumber, etag });
      written += filled;
      filled = 0;
    };
    try {
      for await (const chunk of body) {
        for (let offset = 0; offset < chunk.length; ) {
          const copied = chunk.copy(part, filled, offset);
          filled += copied;
          offset += copied;
          if (filled === part.length) await uploadPart();
        }
      }
      if (!uploadId) return await this.putBuffer(key, part.subarray(0, filled), contentType);
      if (filled > 0) await uploadPart();
      await this.client.completeMultipartUpload(this.bucket, key, uploadId, parts);
      countStorageWrite(key, written);
    } catch (error) {
      if (uploadId) await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
  }

  async putBuffer(key: string, body: Buffer, contentType = 'application/octet-stream'): Promise<void> {
    await this.client.putObject(this.bucket, key, body, body.length, { 'Content-Type': contentType });
    countStorageWrite(key, body.length);
  }

  async putFile(key: string, path: string, contentType = 'application/octet-stream'): Promise<void> {
    await this.client.fPutObject(this.bucket, key, path, { 'Content-Type': contentType });
    countStorageWrite(key, (await stat(path).catch(() => undefined))?.size ?? 0);
  }

  async downloadFile(key: string, path: string): Promise<void> {
    await this.client.fGetObject(this.bucket, key, path);
  }

  /** undefined when the object does not exist. */
  async stat(key: string): Promise<StoredObjectInfo | undefined> {
    try {
      const stat = await this.client.statObject(this.bucket, key);
      return {
        size: stat.size,
        contentType: String(stat.metaData?.['content-type'] ?? 'application/octet-stream'),
        etag: stat.etag,
        lastModified: stat.lastModified,
      };
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  /** Bytes [offset, offset + length) of an object, streamed. */
  read(key: string, offset = 0, length?: number): Promise<Readable> {
    return this.client.getPartialObject(this.bucket, key, offset, length ?? 0);
  }

  /** A short-lived URL the services' own tools (ffprobe, ffmpeg) read over HTTP with range requests. */
  presignedReadUrl(key: string, expirySeconds = 15 * 60): Promise<string> {
    return this.client.presignedGetObject(this.bucket, key, expirySeconds);
  }

  async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      if (item.name) keys.push(item.name);
    }
    return keys;
  }

  /** What the objects under a prefix occupy, summed from the listing (one request per 1000 objects). */
  async prefixBytes(prefix: string): Promise<number> {
    let bytes = 0;
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) bytes += item.size ?? 0;
    return bytes;
  }

  /** Removes every object under a prefix (a project's or an upload's folder). */
  async removePrefix(prefix: string): Promise<void> {
    const keys = await this.listKeys(prefix);
    if (keys.length > 0) await this.client.removeObjects(this.bucket, keys);
  }

  /** Removes an object and any incomplete multipart upload of it; missing is fine. */
  async discard(key: string): Promise<void> {
    await this.client.removeIncompleteUpload(this.bucket, key).catch(() => undefined);
    await this.client.removeObject(this.bucket, key).catch(() => undefined);
  }

  /** Keys with multipart uploads still open under a prefix (tests prove aborted uploads leave none). */
  async listIncompleteUploads(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const stream = this.client.listIncompleteUploads(this.bucket, prefix, true);
    for await (const item of stream as AsyncIterable<{ key: string }>) keys.push(item.key);
    return keys;
  }

  /** Creates the bucket when it does not exist yet; safe to call from every replica at boot. */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket);
    } catch (error) {
      // Another replica may have created it between the two calls.
      if ((error as { code?: string }).code !== 'BucketAlreadyOwnedByYou') throw error;
    }
  }

  /** Readiness probe: the bucket is reachable with our credentials. */
  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} does not exist`);
  }
}
