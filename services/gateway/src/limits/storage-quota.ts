import { formatStorage, type StorageUsage } from '@stemdeck/proto/vocabulary';

export type { StorageUsage };
export { formatStorage };

/** One gigabyte as the studio counts storage: 1024³ bytes (the default quota of 5 GB is 5 × 1024³ bytes). */
export const GB = 1024 ** 3;

export function storageUsage(usedBytes: number, quotaBytes: number): StorageUsage {
  return { usedBytes, quotaBytes, remainingBytes: Math.max(0, quotaBytes - usedBytes) };
}

/** What an upload may use: the usage as it stands, counting the user's other uploads still in flight as used. */
export interface UploadUsage extends StorageUsage {
  /** Of usedBytes, what the user's other uploads still streaming hold. */
  inProgressBytes?: number;
}

/**
 * The refusal of an upload that does not fit, in plain words. `neededBytes` is what the upload needs when it
 * is known (the request's declared length), or undefined when the file turned out larger while streaming.
 */
export function quotaExceededMessage(usage: UploadUsage, neededBytes?: number): string {
  const needs = neededBytes === undefined ? `This upload needs more than ${formatStorage(usage.remainingBytes)}` : `This upload needs ${formatStorage(neededBytes)}`;
  const left = usage.remainingBytes > 0 ? `only ${formatStorage(usage.remainingBytes)}` : 'nothing';
  const inProgress = usage.inProgressBytes ? `, ${formatStorage(usage.inProgressBytes)} of it by your uploads still in progress` : '';
  return `${needs} but ${left} of your ${formatStorage(usage.quotaBytes)} is left (${formatStorage(usage.usedBytes)} used${inProgress}). Delete a project to make room.`;
}
