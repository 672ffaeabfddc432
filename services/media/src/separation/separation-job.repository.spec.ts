import type { Model } from 'mongoose';
import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { SeparationJobRepository } from './separation-job.repository';
import type { SeparationJobDocument } from './separation-job.schema';

/** A jobs model that records the filter of every write and answers as one matched document would. */
function recordingModel() {
  const writes: Array<Record<string, unknown>> = [];
  const model = {
    updateOne: (filter: Record<string, unknown>) => {
      writes.push(filter);
      return { exec: async () => ({ matchedCount: 1, modifiedCount: 1 }) };
    },
  } as unknown as Model<SeparationJobDocument>;
  return { model, writes };
}

describe('SeparationJobRepository', () => {
  it("writes a handed job's progress, partial head, start and end by its id alone, dropping the owner's kept project reads each time", async () => {
    const { model, writes } = recordingModel();
    const cache = new OwnerReadCache({ ttlMs: 5000, maxBuckets: 10, maxReadsPerBucket: 10, instance: 'spec' });
    const repository = new SeparationJobRepository(model, cache);
    let loads = 0;
    const readProjects = () => cache.read('ann', 'projects', 'list', async () => ++loads);
    await readProjects();
    await repository.markProcessing('ann', 'job-1');
    await readProjects();
    await repository.setProgress('ann', 'job-1', 0.5);
    await readProjects();
    await repository.setPartial('ann', 'job-1', 5);
    await readProjects();
    await repository.finish('ann', 'job-1', 'completed');
    await readProjects();
    expect(writes).toEqual([{ _id: 'job-1' }, { _id: 'job-1' }, { _id: 'job-1' }, { _id: 'job-1' }]);
    expect(loads).toBe(5); // every write made the next project read go to the database
  });

  it('keeps the whole filter where the write depends on the stored job (leaving the waiting line)', async () => {
    const { model, writes } = recordingModel();
    const repository = new SeparationJobRepository(model, new OwnerReadCache({ ttlMs: 5000, maxBuckets: 10, maxReadsPerBucket: 10, instance: 'spec' }));
    expect(await repository.leaveWaiting('ann', 'job-1')).toBe(true);
    expect(writes).toEqual([{ _id: 'job-1', ownerId: 'ann', waiting: true }]);
  });
});
