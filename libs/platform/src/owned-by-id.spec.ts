import type { Model } from 'mongoose';
import { findOwnedById } from './owned-by-id';

interface Doc {
  _id: string;
  ownerId: string;
  name: string;
}

/** A model over documents in memory that records the filters it was asked. */
function modelOf(docs: Doc[]) {
  const filters: unknown[] = [];
  const model = {
    findOne: (filter: { _id: string }) => {
      filters.push(filter);
      return { lean: () => ({ exec: async () => docs.find((doc) => doc._id === filter._id) ?? null }) };
    },
  } as unknown as Model<Doc>;
  return { model, filters };
}

describe('findOwnedById', () => {
  const docs = [{ _id: 'p1', ownerId: 'ann', name: "ann's" }];

  it("answers the owner's document, asking for its id alone (the one filter FerretDB on SQLite hands to SQLite)", async () => {
    const { model, filters } = modelOf(docs);
    expect(await findOwnedById(model, 'p1', 'ann')).toEqual(docs[0]);
    expect(filters).toEqual([{ _id: 'p1' }]);
  });

  it("answers another owner's document as a missing one", async () => {
    const { model } = modelOf(docs);
    expect(await findOwnedById(model, 'p1', 'bob')).toBeNull();
    expect(await findOwnedById(model, 'p2', 'ann')).toBeNull();
  });
});
