import { GetStorageUsageUseCase } from './get-storage-usage.usecase';

/** Storage holding `sizes` by key, and users with their operator-set quotas. */
function setUp(sizes: Record<string, number>, quotas: Record<string, number> = {}) {
  const storage = {
    prefixBytes: async (prefix: string) =>
      Object.entries(sizes)
        .filter(([key]) => key.startsWith(prefix))
        .reduce((sum, [, size]) => sum + size, 0),
  };
  const users = { storageQuotaOf: async (id: string) => quotas[id] };
  return new GetStorageUsageUseCase(storage, users, { STORAGE_QUOTA_BYTES: 1000 });
}

describe('GetStorageUsageUseCase', () => {
  const sizes = {
    'users/u1/projects/p1/original': 300,
    'users/u1/projects/p1/stems/fast/vocals.flac': 100,
    'users/u1/projects/p2/exports/e1/export.zip': 50,
    'users/u10/projects/p3/original': 7000,
    'users/u2/projects/p4/original': 20,
  };

  it("sums every object of the owner's projects, and nobody else's, against the default quota", async () => {
    await expect(setUp(sizes).execute('u1')).resolves.toEqual({ usedBytes: 450, quotaBytes: 1000, remainingBytes: 550 });
  });

  it("takes the operator's quota for a user when one is set", async () => {
    await expect(setUp(sizes, { u2: 30 }).execute('u2')).resolves.toEqual({ usedBytes: 20, quotaBytes: 30, remainingBytes: 10 });
  });

  it('has nothing left, not less, for a user past the quota', async () => {
    await expect(setUp(sizes).execute('u10')).resolves.toEqual({ usedBytes: 7000, quotaBytes: 1000, remainingBytes: 0 });
  });
});
