import { formatStorage, GB, quotaExceededMessage, storageUsage } from './storage-quota';

const MB = 1024 ** 2;

describe('storage quota', () => {
  it('counts what is left, never below nothing', () => {
    expect(storageUsage(2 * GB, 5 * GB)).toEqual({ usedBytes: 2 * GB, quotaBytes: 5 * GB, remainingBytes: 3 * GB });
    expect(storageUsage(6 * GB, 5 * GB).remainingBytes).toBe(0);
  });

  it('writes sizes as people read them', () => {
    expect(formatStorage(5 * GB)).toBe('5 GB');
    expect(formatStorage(4.88 * GB)).toBe('4.88 GB');
    expect(formatStorage(1.2 * GB)).toBe('1.2 GB');
    expect(formatStorage(312 * MB)).toBe('312 MB');
    expect(formatStorage(12.34 * MB)).toBe('12.3 MB');
    expect(formatStorage(0.5 * MB)).toBe('0.5 MB');
    expect(formatStorage(0)).toBe('0 MB');
  });

  it('says what the upload needs, what is left of the quota and what is used', () => {
    const usage = storageUsage(5 * GB - 120 * MB, 5 * GB);
    expect(quotaExceededMessage(usage, 312 * MB)).toBe(
      'This upload needs 312 MB but only 120 MB of your 5 GB is left (4.88 GB used). Delete a project to make room.',
    );
  });

  it('says the upload needs more than what is left when it was cut off while streaming', () => {
    expect(quotaExceededMessage(storageUsage(4 * GB, 5 * GB))).toBe(
      'This upload needs more than 1 GB but only 1 GB of your 5 GB is left (4 GB used). Delete a project to make room.',
    );
  });

  it('counts the user\'s other uploads still in flight as used, and says so', () => {
    const usage = { ...storageUsage(4 * GB + 700 * MB, 5 * GB), inProgressBytes: 600 * MB };
    expect(quotaExceededMessage(usage, 400 * MB)).toBe(
      'This upload needs 400 MB but only 324 MB of your 5 GB is left (4.68 GB used, 600 MB of it by your uploads still in progress). Delete a project to make room.',
    );
  });

  it('says nothing is left when the quota is used up', () => {
    expect(quotaExceededMessage(storageUsage(5 * GB, 5 * GB), 3 * MB)).toBe(
      'This upload needs 3 MB but nothing of your 5 GB is left (5 GB used). Delete a project to make room.',
    );
  });
});
