import MongoStore from 'connect-mongo';
import { SESSION_TOUCH_AFTER_SECONDS, sessionStoreOptions } from './session.middleware';

type Call = { method: string; options: { writeConcern?: { w?: unknown } } | undefined };

/** A client whose one collection records each call and the options it was given. */
function recordingClient(calls: Call[]) {
  const record =
    (method: string, result: Record<string, unknown> = {}) =>
    async (...args: unknown[]) => {
      calls.push({ method, options: args.find((a, i) => i > 0 && typeof a === 'object' && a !== null && 'writeConcern' in a) as Call['options'] ?? (args.at(-1) as Call['options']) });
      return result;
    };
  const collection = {
    createIndex: record('createIndex'),
    deleteMany: record('deleteMany', { deletedCount: 0 }),
    deleteOne: record('deleteOne', { deletedCount: 1 }),
    updateOne: record('updateOne', { upsertedCount: 1, modifiedCount: 1, matchedCount: 1 }),
    findOne: async () => null,
  };
  return { db: () => ({ collection: () => collection }) };
}

const acknowledged = (call: Call) => call.options?.writeConcern !== undefined && call.options.writeConcern.w !== 0 && call.options.writeConcern.w !== '0';

describe('session store options', () => {
  afterEach(() => jest.useRealTimers());

  it('never lets the store sweep on its own, even after hours', async () => {
    jest.useFakeTimers();
    const calls: Call[] = [];
    const store = MongoStore.create(sessionStoreOptions(3600, recordingClient(calls)));
    await jest.advanceTimersByTimeAsync(3 * 3600 * 1000);
    expect(calls.filter((c) => c.method === 'deleteMany')).toEqual([]);
    expect(calls.filter((c) => c.method === 'createIndex')).toEqual([]);
    await store.close().catch(() => undefined);
  });

  it('writes every session change (set, touch, destroy) acknowledged', async () => {
    const calls: Call[] = [];
    const store = MongoStore.create(sessionStoreOptions(3600, recordingClient(calls)));
    const session = { cookie: { maxAge: 3600_000, originalMaxAge: 3600_000 } } as never;
    await new Promise<void>((resolve, reject) => store.set('sid-1', session, (e: unknown) => (e ? reject(e) : resolve())));
    await new Promise<void>((resolve, reject) => store.touch('sid-1', session, (e: unknown) => (e ? reject(e) : resolve())));
    await new Promise<void>((resolve, reject) => store.destroy('sid-1', (e: unknown) => (e ? reject(e) : resolve())));
    expect(calls.map((c) => c.method)).toEqual(['updateOne', 'updateOne', 'deleteOne']);
    for (const call of calls) expect({ method: call.method, acknowledged: acknowledged(call) }).toEqual({ method: call.method, acknowledged: true });
  });

  it('writes an unchanged session back at most once a minute, not on every request', async () => {
    const calls: Call[] = [];
    const store = MongoStore.create(sessionStoreOptions(3600, recordingClient(calls)));
    const touch = (lastModified: Date) =>
      new Promise<void>((resolve, reject) =>
        store.touch('sid-1', { cookie: { maxAge: 3600_000, originalMaxAge: 3600_000 }, lastModified } as never, (e: unknown) => (e ? reject(e) : resolve())),
      );
    await touch(new Date(Date.now() - 10_000));
    expect(calls).toEqual([]);
    await touch(new Date(Date.now() - (SESSION_TOUCH_AFTER_SECONDS + 1) * 1000));
    expect(calls.map((c) => c.method)).toEqual(['updateOne']);
  });
});
