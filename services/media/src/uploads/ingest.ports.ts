import type { SeparationJob } from '@stemdeck/proto';
import type { SeparationMediaTools } from '../separation/separation.ports';

/*
 * What the upload's content check needs from the world, each behind a token: media.module binds them to the
 * real storage and use-cases (ingest.providers.ts; the project store is PROJECT_STORE), the unit spec to in-memory fakes (src/testing).
 */

/** The uploaded object as the check reads it, and the removal of a refused upload's objects. */
export interface UploadStorage {
  stat(key: string): Promise<{ size: number } | undefined>;
  presignedReadUrl(key: string): Promise<string>;
  /** `length` bytes from `offset` (the check reads a file's first bytes to tell unreadable media from non-media). */
  read(key: string, offset: number, length: number): Promise<AsyncIterable<Buffer | Uint8Array | string>>;
  removePrefix(prefix: string): Promise<void>;
}
export const UPLOAD_STORAGE = Symbol('UploadStorage');

/** ffprobe and the streamed decode, as the content check uses them. */
export type ContentTools = Pick<SeparationMediaTools, 'probe' | 'decodeStream'>;

/** The project's first job (the fast engine), queued once the project exists. */
export interface FirstJob {
  execute(request: { ownerId: string; projectId: string; engine: 'fast' }): Promise<SeparationJob>;
}
export const FIRST_JOB = Symbol('FirstJob');

/** Removes a project and everything stored for it (a project whose job could not be queued). */
export interface ProjectRemoval {
  execute(ownerId: string, projectId: string): Promise<unknown>;
}
export const PROJECT_REMOVAL = Symbol('ProjectRemoval');
