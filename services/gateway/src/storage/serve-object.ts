import { ObjectStorageAdapter } from '@stemdeck/platform';
import type { ObjectLocation } from '@stemdeck/proto';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../errors/domain-error';
import { parseByteRange } from './byte-range';
import { contentDisposition } from './content-disposition';

/**
 * Streams an owned object to its owner with HTTP range support, so the player can seek without
 * downloading everything. The bucket is never public; the gateway checks ownership before calling this.
 */
export async function serveObject(
  req: Request,
  res: Response,
  storage: ObjectStorageAdapter,
  location: ObjectLocation,
  /**
   * `cacheControl`: what may keep the answer (a share link's audio: nothing, so a revoked link stops at once);
   * `disposition`: `attachment` to have the browser save it under its name (an export), `inline` by default.
   */
  options: { cacheControl?: string; disposition?: 'inline' | 'attachment' } = {},
): Promise<void> {
  const info = await storage.stat(location.objectKey);
  if (!info) throw new DomainError(404, 'File not found');
  const etag = `"${info.etag}"`;
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', info.lastModified.toUTCString());
  res.setHeader('Cache-Control', options.cacheControl ?? 'private, no-cache');
  res.setHeader('Content-Type', location.contentType);
  res.setHeader('Content-Disposition', contentDisposition(options.disposition ?? 'inline', location.fileName));
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end();
    return;
  }

  const range = parseByteRange(req.headers.range, info.size);
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${info.size}`);
    throw new DomainError(416, 'Requested range not satisfiable');
  }
  const start = range?.start ?? 0;
  const length = range ? range.end - range.start + 1 : info.size;
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  }
  res.setHeader('Content-Length', String(length));
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return;
  }
  const body = await storage.read(location.objectKey, start, length);
  await pipeline(body, res).catch(() => body.destroy());
}
