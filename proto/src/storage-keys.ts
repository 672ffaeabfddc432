import type { EngineName, StemType } from './media';

/**
 * Every binary lives under its owner's prefix, one folder per project, so owner isolation and cleanup
 * are prefix operations. Owner ids come from the identity provider (`sub`) and are path-safe UUIDs.
 */
/** Every object of an owner's projects lies under this prefix (what their storage quota counts). */
export const ownerProjectsPrefix = (ownerId: string): string => `users/${ownerId}/projects/`;
export const projectPrefix = (ownerId: string, projectId: string): string => `users/${ownerId}/projects/${projectId}/`;
export const originalKey = (ownerId: string, projectId: string): string => `${projectPrefix(ownerId, projectId)}original`;
export const extractedAudioKey = (ownerId: string, projectId: string): string => `${projectPrefix(ownerId, projectId)}audio.flac`;
export const stemsPrefix = (ownerId: string, projectId: string, engine: EngineName): string =>
  `${projectPrefix(ownerId, projectId)}stems/${engine}/`;
/** Stems are stored losslessly as 24-bit FLAC (stems written before that are WAV and keep their .wav keys). */
export const stemKey = (ownerId: string, projectId: string, engine: EngineName, type: StemType): string =>
  `${stemsPrefix(ownerId, projectId, engine)}${type}.flac`;
/** The content type a stem object is served with, from its key's extension. */
export const stemContentType = (objectKey: string): string => (objectKey.endsWith('.wav') ? 'audio/wav' : 'audio/flac');
/** A mastering job's outputs live in its own folder, so a failed or cancelled job removes them as one prefix. */
export const mastersPrefix = (ownerId: string, projectId: string): string => `${projectPrefix(ownerId, projectId)}masters/`;
export const masterJobPrefix = (ownerId: string, projectId: string, jobId: string): string => `${mastersPrefix(ownerId, projectId)}${jobId}/`;
/** The full-mix master: 24-bit FLAC. */
export const masterKey = (ownerId: string, projectId: string, jobId: string): string => `${masterJobPrefix(ownerId, projectId, jobId)}master.flac`;
/** An enhance job's outputs (one enhanced version per target stem) live in its own folder, removed as one prefix. */
export const enhancedPrefix = (ownerId: string, projectId: string): string => `${projectPrefix(ownerId, projectId)}enhanced/`;
export const enhanceJobPrefix = (ownerId: string, projectId: string, jobId: string): string => `${enhancedPrefix(ownerId, projectId)}${jobId}/`;
/** An export's file lives in its own folder under the project, so expiry, failure and project deletion remove it by prefix. */
export const exportsPrefix = (ownerId: string, projectId: string): string => `${projectPrefix(ownerId, projectId)}exports/`;
export const exportPrefix = (ownerId: string, projectId: string, exportId: string): string => `${exportsPrefix(ownerId, projectId)}${exportId}/`;
