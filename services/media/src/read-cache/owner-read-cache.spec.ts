import { OwnerReadCache, type ReadCacheChange } from './owner-read-cache';

/** A query the spec answers by hand: each call is counted and stays open until resolved. */
function query<T>() {
  const calls: Array<(value: T) => void> = [];
  const load = () => new Promise<T>((resolve) => calls.push(resolve));
  return { load, calls };
}

/** A query a read must not make (it is answered from memory). */
const unused = async (): Promise<never> => {
  throw new Error('not read again');
};

function setUp(ttlMs = 1000, maxReadsPerBucket = 8) {
  let now = 0;
  const announced: ReadCacheChange[] = [];
  const cache = new OwnerReadCache({ ttlMs, maxBuckets: 3, maxReadsPerBucket, instance: 'here', now: () => now });
  cache.connect({ announce: async (change) => void announced.push(change) });
  return { cache, announced, advance: (ms: number) => (now += ms) };
}

describe('OwnerReadCache', () => {
  it('answers a repeated read from memory, and each owner and key from its own query', async () => {
    const { cache } = setUp();
    let queries = 0;
    const load = (value: string) => async () => {
      queries += 1;
      return value;
    };
    expect(await cache.read('ann', 'projects', 'list', load('ann 1'))).toBe('ann 1');
    expect(await cache.read('ann', 'projects', 'list', load('ann 2'))).toBe('ann 1');
    expect(await cache.read('bob', 'projects', 'list', load('bob 1'))).toBe('bob 1');
    expect(await cache.read('ann', 'projects', 'project:p1', load('p1'))).toBe('p1');
    expect(queries).toBe(3);
  });

  it("drops an owner's scope on a change (theirs only, that scope only) and announces it to the other instances", async () => {
    const { cache, announced } = setUp();
    await cache.read('ann', 'projects', 'list', async () => 'old list');
    await cache.read('ann', 'stems', 'list:p1:fast', async () => 'old stems');
    await cache.read('bob', 'stems', 'list:p2:fast', async () => 'bob stems');
    await cache.changed('ann', 'stems');
    expect(announced).toEqual([{ ownerId: 'ann', scope: 'stems', instance: 'here' }]);
    expect(await cache.read('ann', 'stems', 'list:p1:fast', async () => 'new stems')).toBe('new stems');
    expect(await cache.read('ann', 'projects', 'list', async () => 'new list')).toBe('old list');
    expect(await cache.read('bob', 'stems', 'list:p2:fast', async () => 'new bob stems')).toBe('bob stems');
  });

  it('drops and announces after a write run through it, once it has answered, failed or not, and passes on its answer or failure', async () => {
    const { cache, announced } = setUp();
    await cache.read('ann', 'projects', 'list', async () => 'old list');
    const slow = query<string>();
    const write = cache.changing('ann', 'projects', slow.load);
    expect(await cache.read('ann', 'projects', 'list', unused)).toBe('old list');
    slow.calls[0]('stored');
    expect(await write).toBe('stored');
    expect(announced).toEqual([{ ownerId: 'ann', scope: 'projects', instance: 'here' }]);
    expect(await cache.read('ann', 'projects', 'list', async () => 'new list')).toBe('new list');
    await expect(cache.changing('ann', 'projects', async () => Promise.reject(new Error('lost answer')))).rejects.toThrow('lost answer');
    expect(announced).toHaveLength(2);
    expect(await cache.read('ann', 'projects', 'list', async () => 'read again')).toBe('read again');
  });

  it("drops what another instance changed and ignores its own announcement coming back", async () => {
    const { cache } = setUp();
    await cache.read('ann', 'projects', 'list', async () => 'old');
    cache.heard({ ownerId: 'ann', scope: 'projects', instance: 'here' });
    expect(await cache.read('ann', 'projects', 'list', async () => 'new')).toBe('old');
    cache.heard({ ownerId: 'ann', scope: 'projects', instance: 'elsewhere' });
    expect(await cache.read('ann', 'projects', 'list', async () => 'new')).toBe('new');
  });

  it('queries again once a read is older than the time limit', async () => {
    const { cache, advance } = setUp(1000);
    await cache.read('ann', 'projects', 'list', async () => 'first');
    advance(999);
    expect(await cache.read('ann', 'projects', 'list', async () => 'second')).toBe('first');
    advance(1);
    expect(await cache.read('ann', 'projects', 'list', async () => 'second')).toBe('second');
  });

  it('keeps nothing with a time limit of 0, yet concurrent equal reads still share one query', async () => {
    const { cache } = setUp(0);
    const { load, calls } = query<string>();
    const first = cache.read('ann', 'projects', 'list', load);
    const second = cache.read('ann', 'projects', 'list', load);
    expect(calls).toHaveLength(1);
    calls[0]('one answer');
    expect(await Promise.all([first, second])).toEqual(['one answer', 'one answer']);
    const third = cache.read('ann', 'projects', 'list', load);
    expect(calls).toHaveLength(2);
    calls[1]('a new query');
    expect(await third).toBe('a new query');
  });

  it('answers a read that was under way when its scope changed but does not keep it, nor share it with later reads', async () => {
    const { cache } = setUp();
    const { load, calls } = query<string>();
    const before = cache.read('ann', 'stems', 'list:p1:fast', load);
    await cache.changed('ann', 'stems');
    const after = cache.read('ann', 'stems', 'list:p1:fast', load);
    expect(calls).toHaveLength(2);
    calls[0]('read before the change');
    calls[1]('read after the change');
    expect(await before).toBe('read before the change');
    expect(await after).toBe('read after the change');
    expect(await cache.read('ann', 'stems', 'list:p1:fast', async () => 'unused')).toBe('read after the change');
  });

  it('keeps no failed read: the next one queries again', async () => {
    const { cache } = setUp();
    await expect(cache.read('ann', 'projects', 'project:p1', async () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await cache.read('ann', 'projects', 'project:p1', async () => 'back')).toBe('back');
  });

  it('keeps a bounded number of reads per owner scope, the least recently read going first', async () => {
    const { cache } = setUp(1000, 4);
    for (const id of ['p1', 'p2', 'p3', 'p4']) await cache.read('ann', 'projects', `project:${id}`, async () => `${id} old`);
    await cache.read('ann', 'projects', 'project:p1', unused);
    await cache.read('ann', 'projects', 'project:p5', async () => 'p5 old');
    expect(await cache.read('ann', 'projects', 'project:p2', async () => 'p2 new')).toBe('p2 new');
    expect(await cache.read('ann', 'projects', 'project:p1', unused)).toBe('p1 old');
  });

  it('keeps a bounded number of owner scopes, the least recently read going first', async () => {
    const { cache } = setUp();
    for (const owner of ['a', 'b', 'c']) await cache.read(owner, 'projects', 'list', async () => `${owner} old`);
    await cache.read('a', 'projects', 'list', async () => 'unused');
    await cache.read('d', 'projects', 'list', async () => 'd old');
    expect(await cache.read('b', 'projects', 'list', async () => 'b new')).toBe('b new');
    expect(await cache.read('a', 'projects', 'list', async () => 'a new')).toBe('a old');
  });

  describe('a write whose result rewrites the kept reads', () => {
    /** A kept list of records and one record's own read; the rewrite replaces the record in both. */
    const rewrite = (result: { id: string; volume: number }, key: string, value: unknown) => {
      if (key === `record:${result.id}`) return result;
      if (key === 'list') return (value as Array<{ id: string; volume: number }>).map((r) => (r.id === result.id ? result : r));
      return value;
    };
    const keep = async (cache: OwnerReadCache) => {
      await cache.read('ann', 'stems', 'list', async () => [{ id: 's1', volume: 0 }, { id: 's2', volume: 0 }]);
      await cache.read('ann', 'stems', 'record:s1', async () => ({ id: 's1', volume: 0 }));
      await cache.read('ann', 'stems', 'record:s2', async () => ({ id: 's2', volume: 0 }));
    };
    it('keeps the reads, rewritten with the stored record, and still announces the change to the others', async () => {
      const { cache, announced } = setUp();
      await keep(cache);
      await cache.changedTo('ann', 'stems', async () => ({ id: 's1', volume: -6 }), rewrite);
      expect(await cache.read('ann', 'stems', 'list', unused)).toEqual([{ id: 's1', volume: -6 }, { id: 's2', volume: 0 }]);
      expect(await cache.read('ann', 'stems', 'record:s1', unused)).toEqual({ id: 's1', volume: -6 });
      expect(await cache.read('ann', 'stems', 'record:s2', unused)).toEqual({ id: 's2', volume: 0 });
      expect(announced).toEqual([{ ownerId: 'ann', scope: 'stems', instance: 'here' }]);
    });

    it('drops a read the rewrite answers undefined for', async () => {
      const { cache } = setUp();
      await keep(cache);
      await cache.changedTo('ann', 'stems', async () => ({ id: 's1', volume: -6 }), (result, key, value) => (key === 'list' ? undefined : value));
      expect(await cache.read('ann', 'stems', 'list', async () => 'read again')).toBe('read again');
      expect(await cache.read('ann', 'stems', 'record:s2', unused)).toEqual({ id: 's2', volume: 0 });
    });

    it('drops the scope when the write fails (it may have been applied), and passes the failure on', async () => {
      const { cache, announced } = setUp();
      await keep(cache);
      await expect(cache.changedTo('ann', 'stems', async () => Promise.reject(new Error('lost answer')), rewrite)).rejects.toThrow('lost answer');
      expect(await cache.read('ann', 'stems', 'record:s2', async () => 'read again')).toBe('read again');
      expect(announced).toHaveLength(1);
    });

    it('drops instead of rewriting when the scope was dropped while the write was under way (a re-created record restarts its count)', async () => {
      const { cache } = setUp();
      await keep(cache);
      const slow = query<{ id: string; volume: number }>();
      const write = cache.changedTo('ann', 'stems', slow.load, rewrite);
      await cache.changed('ann', 'stems');
      await cache.read('ann', 'stems', 'list', async () => [{ id: 's1', volume: 0 }]);
      slow.calls[0]({ id: 's1', volume: -6 });
      await write;
      expect(await cache.read('ann', 'stems', 'list', async () => 'read again')).toBe('read again');
    });

    it('drops instead of rewriting when nothing was kept when the write began (reads made meanwhile may predate it)', async () => {
      const { cache } = setUp();
      const slow = query<{ id: string; volume: number }>();
      const write = cache.changedTo('ann', 'stems', slow.load, rewrite);
      await cache.read('ann', 'stems', 'list', async () => [{ id: 's1', volume: 0 }]);
      slow.calls[0]({ id: 's1', volume: -6 });
      await write;
      expect(await cache.read('ann', 'stems', 'list', async () => 'read again')).toBe('read again');
    });

    it('rewrites alongside a write of another record', async () => {
      const { cache } = setUp();
      await keep(cache);
      const slow = query<{ id: string; volume: number }>();
      const a = cache.changedTo('ann', 'stems', slow.load, rewrite);
      await cache.changedTo('ann', 'stems', async () => ({ id: 's2', volume: -1 }), rewrite);
      slow.calls[0]({ id: 's1', volume: -6 });
      await a;
      expect(await cache.read('ann', 'stems', 'list', unused)).toEqual([{ id: 's1', volume: -6 }, { id: 's2', volume: -1 }]);
    });

    it('lets go of a read under way at the end of the write: answered, not kept, not joined by later reads', async () => {
      const { cache } = setUp();
      await keep(cache);
      const before = query<Array<{ id: string; volume: number }>>();
      const reading = query<string>();
      const read = cache.read('ann', 'stems', 'record:s3', reading.load);
      const listBefore = cache.read('ann', 'stems', 'other-list', before.load);
      await cache.changedTo('ann', 'stems', async () => ({ id: 's1', volume: -6 }), rewrite);
      // A read after the write does not join the one under way (which may hold s1 as it was).
      const listAfter = cache.read('ann', 'stems', 'other-list', before.load);
      expect(before.calls).toHaveLength(2);
      before.calls[0]([{ id: 's1', volume: 0 }]);
      before.calls[1]([{ id: 's1', volume: -6 }]);
      reading.calls[0]('s3 as it was');
      expect(await listBefore).toEqual([{ id: 's1', volume: 0 }]);
      expect(await listAfter).toEqual([{ id: 's1', volume: -6 }]);
      await read;
      expect(await cache.read('ann', 'stems', 'other-list', unused)).toEqual([{ id: 's1', volume: -6 }]);
      expect(await cache.read('ann', 'stems', 'record:s3', async () => 's3 read again')).toBe('s3 read again');
      expect(await cache.read('ann', 'stems', 'list', unused)).toEqual([{ id: 's1', volume: -6 }, { id: 's2', volume: 0 }]);
    });
  });
});
