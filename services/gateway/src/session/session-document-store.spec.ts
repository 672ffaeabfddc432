import type { SessionData } from 'express-session';
import { sessionStoreOptions } from './session.middleware';
import { SessionDocumentStore } from './session-document-store';

const NOW = Date.parse('2026-11-24T12:00:00Z');

/** A client whose sessions collection answers findOne from documents in memory and records each filter. */
function clientWith(docs: Array<Record<string, unknown>>) {
  const filters: unknown[] = [];
  const collection = {
    findOne: async (filter: { _id: string }) => {
      filters.push(filter);
      return docs.find((doc) => doc._id === filter._id) ?? null;
    },
  };
  return { client: { db: () => ({ collection: () => collection }) }, filters };
}

const read = (store: SessionDocumentStore, sid: string) =>
  new Promise<SessionData | null | undefined>((resolve, reject) => store.get(sid, (error, session) => (error ? reject(error) : resolve(session))));

describe('SessionDocumentStore', () => {
  const session = { cookie: { originalMaxAge: 3600_000 }, user: { id: 'ann' } };

  it('reads a session by its id alone (the one filter FerretDB on SQLite hands to SQLite), with its last write time', async () => {
    const lastModified = new Date(NOW - 30_000);
    const { client, filters } = clientWith([{ _id: 'sid-1', session, expires: new Date(NOW + 1000), lastModified }]);
    const store = new SessionDocumentStore(sessionStoreOptions(3600, client), () => NOW);
    expect(await read(store, 'sid-1')).toEqual({ ...session, lastModified });
    expect(filters).toEqual([{ _id: 'sid-1' }]);
  });

  it('answers no session for an expired one not yet swept, or one that is not there', async () => {
    const { client } = clientWith([
      { _id: 'expired', session, expires: new Date(NOW) },
      { _id: 'endless', session },
    ]);
    const store = new SessionDocumentStore(sessionStoreOptions(3600, client), () => NOW);
    expect(await read(store, 'expired')).toBeNull();
    expect(await read(store, 'missing')).toBeNull();
    expect(await read(store, 'endless')).toEqual(session);
  });

  it('refuses options whose sessions this read would misread (encrypted, transformed ids, serialised)', () => {
    const { client } = clientWith([]);
    for (const changed of [{ stringify: true }, { crypto: { secret: 's' } }, { transformId: (sid: string) => sid }, { unserialize: (s: unknown) => s }]) {
      expect(() => new SessionDocumentStore({ ...sessionStoreOptions(3600, client), ...changed } as never)).toThrow('stored as they are');
    }
  });

  it('passes a failed read on', async () => {
    const client = { db: () => ({ collection: () => ({ findOne: async () => Promise.reject(new Error('database away')) }) }) };
    const store = new SessionDocumentStore(sessionStoreOptions(3600, client), () => NOW);
    await expect(read(store, 'sid-1')).rejects.toThrow('database away');
  });
});
