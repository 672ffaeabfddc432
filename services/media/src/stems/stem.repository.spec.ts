import type { Model } from 'mongoose';
import { OwnerReadCache } from '../read-cache/owner-read-cache';
import { StemRepository, STEM_READ_KEYS } from './stem.repository';
import type { StemDocument } from './stem.schema';

const stem = (id: string, ownerId: string): StemDocument =>
  ({ _id: id, ownerId, projectId: id.split('-')[0], engine: 'fast', type: 'drums', objectKey: `${id}.flac`, volume: 0, muted: false, soloed: false, rev: 1 }) as unknown as StemDocument;

/** A stems model over documents in memory that records the filter of every query and write. */
function modelOver(docs: StemDocument[]) {
  const calls: Array<{ op: string; filter: Record<string, unknown> }> = [];
  const answer = <T>(value: T) => ({ lean: () => ({ exec: async () => value }) });
  const model = {
    findOne: (filter: { _id: string }) => {
      calls.push({ op: 'findOne', filter });
      return answer(docs.find((doc) => doc._id === filter._id) ?? null);
    },
    findOneAndUpdate: (filter: { _id: string }, update: { $set: Partial<StemDocument> }) => {
      calls.push({ op: 'findOneAndUpdate', filter });
      const doc = docs.find((candidate) => candidate._id === filter._id);
      if (doc) Object.assign(doc, update.$set, { rev: (doc.rev ?? 0) + 1 });
      return answer(doc ? { ...doc } : null);
    },
  } as unknown as Model<StemDocument>;
  return { model, calls };
}

function setUp(docs: StemDocument[]) {
  const { model, calls } = modelOver(docs);
  const cache = new OwnerReadCache({ ttlMs: 5000, maxBuckets: 10, maxReadsPerBucket: 10, instance: 'spec' });
  return { repository: new StemRepository(model, cache), cache, calls };
}

describe('StemRepository.updateOwned', () => {
  it("writes the owner's stem by its id alone, after one read by id that later changes do not repeat", async () => {
    const { repository, calls } = setUp([stem('p1-fast-drums', 'ann')]);
    expect(await repository.updateOwned('ann', 'p1-fast-drums', { volume: -6 })).toMatchObject({ volume: -6, rev: 2 });
    expect(await repository.updateOwned('ann', 'p1-fast-drums', { volume: -3 })).toMatchObject({ volume: -3, rev: 3 });
    expect(calls).toEqual([
      { op: 'findOne', filter: { _id: 'p1-fast-drums' } },
      { op: 'findOneAndUpdate', filter: { _id: 'p1-fast-drums' } },
      { op: 'findOneAndUpdate', filter: { _id: 'p1-fast-drums' } },
    ]);
  });

  it("answers another owner's stem or a missing one as missing, and writes nothing", async () => {
    const docs = [stem('p1-fast-drums', 'ann')];
    const { repository, calls } = setUp(docs);
    expect(await repository.updateOwned('bob', 'p1-fast-drums', { volume: -42 })).toBeNull();
    expect(await repository.updateOwned('bob', 'p9-fast-drums', { volume: -42 })).toBeNull();
    expect(calls.map((call) => call.op)).toEqual(['findOne', 'findOne']);
    expect(docs[0]!.volume).toBe(0);
  });

  it("answers as missing, and keeps nothing of it, a stem whose stored owner is not the caller (an id reused across owners)", async () => {
    const docs = [stem('p1-fast-drums', 'ann')];
    const { repository, cache } = setUp(docs);
    await repository.updateOwned('ann', 'p1-fast-drums', { volume: -1 });
    docs[0]!.ownerId = 'bob';
    expect(await repository.updateOwned('ann', 'p1-fast-drums', { volume: -6 })).toBeNull();
    expect(await cache.read('ann', 'stems', STEM_READ_KEYS.stem('p1-fast-drums'), async () => 'read again')).toBe('read again');
  });
});
