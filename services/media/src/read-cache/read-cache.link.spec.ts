import type { ZodType } from 'zod';
import { OwnerReadCache } from './owner-read-cache';
import { linkReadCache, READ_CACHE_CHANGES_SUBJECT, type ReadCacheBus } from './read-cache.link';

/** An event bus in memory: what is published, the one subscription's handler, the connection's listener. */
function fakeBus() {
  const published: Array<{ subject: string; payload: unknown; flushed: boolean }> = [];
  let deliver: ((payload: unknown) => void) | undefined;
  let connectionChanged: ((change: 'disconnect' | 'reconnect') => void) | undefined;
  const bus: ReadCacheBus = {
    publish: (subject, payload) => void published.push({ subject, payload, flushed: false }),
    flush: async () => {
      for (const message of published) message.flushed = true;
      return true;
    },
    subscribe: <T>(subject: string, schema: ZodType<T>, handle: (event: T) => void) => {
      expect(subject).toBe(READ_CACHE_CHANGES_SUBJECT);
      deliver = (payload) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) handle(parsed.data);
      };
    },
    onConnectionChange: (handle) => void (connectionChanged = handle),
  };
  return { bus, published, hear: (payload: unknown) => deliver!(payload), connection: (change: 'disconnect' | 'reconnect') => connectionChanged!(change) };
}

describe('linkReadCache', () => {
  const setUp = () => {
    const nats = fakeBus();
    const cache = linkReadCache(new OwnerReadCache({ ttlMs: 60_000, maxBuckets: 10, maxReadsPerBucket: 10, instance: 'here' }), nats.bus);
    return { ...nats, cache };
  };
  const kept = async (cache: OwnerReadCache, owner = 'ann') => cache.read(owner, 'projects', 'list', async () => 'fresh');

  it('announces a change on the subject and has it flushed to NATS before the write returns', async () => {
    const { cache, published } = setUp();
    await cache.changed('ann', 'stems');
    expect(published).toEqual([{ subject: READ_CACHE_CHANGES_SUBJECT, payload: { ownerId: 'ann', scope: 'stems', instance: 'here' }, flushed: true }]);
  });

  it("drops what another instance announces, not its own announcement nor a malformed one", async () => {
    const { cache, hear } = setUp();
    await cache.read('ann', 'projects', 'list', async () => 'old');
    hear({ ownerId: 'ann', scope: 'projects', instance: 'here' });
    hear({ ownerId: 'ann', scope: 'everything', instance: 'elsewhere' });
    expect(await kept(cache)).toBe('old');
    hear({ ownerId: 'ann', scope: 'projects', instance: 'elsewhere' });
    expect(await kept(cache)).toBe('fresh');
  });

  it('forgets everything when the connection is lost or made again (announcements meanwhile never arrived)', async () => {
    for (const change of ['disconnect', 'reconnect'] as const) {
      const { cache, connection } = setUp();
      await cache.read('ann', 'projects', 'list', async () => 'old');
      await cache.read('bob', 'projects', 'list', async () => 'old');
      connection(change);
      expect(await kept(cache)).toBe('fresh');
      expect(await kept(cache, 'bob')).toBe('fresh');
    }
  });

  it('answers the write even when the announcement cannot go out (shutting down)', async () => {
    const { cache, bus } = setUp();
    bus.publish = () => {
      throw new Error('event bus is not connected');
    };
    await expect(cache.changed('ann', 'stems')).resolves.toBeUndefined();
  });
});
