import MongoStore from 'connect-mongo';
import type { SessionData } from 'express-session';

/** connect-mongo's options. */
export type StoreOptions = Parameters<typeof MongoStore.create>[0];

interface StoredSession {
  _id: string;
  session: SessionData;
  expires?: Date;
  lastModified?: Date;
}

/**
 * connect-mongo's store with its session read by the id alone, the expiry checked here: its own read puts the
 * expiry beside the id in the filter, and FerretDB on SQLite then decodes every session of every user to test
 * each one (see findOwnedById). For sessions stored as they are (`stringify: false`, no encryption, no id
 * transform: sessionStoreOptions), which is what this read expects; writes are connect-mongo's own.
 */
export class SessionDocumentStore extends MongoStore {
  constructor(
    private readonly storeOptions: StoreOptions,
    private readonly now: () => number = Date.now,
  ) {
    super(storeOptions);
    // What this read leaves out: connect-mongo's encryption, id transform and (un)serialisers.
    const { stringify, crypto, transformId, serialize, unserialize } = storeOptions;
    if (stringify !== false || crypto?.secret || transformId || serialize || unserialize) {
      throw new Error('SessionDocumentStore reads sessions stored as they are: stringify false, no crypto, transformId, serialize or unserialize');
    }
  }

  override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    void this.read(sid).then(
      (session) => {
        this.emit('get', sid);
        callback(null, session);
      },
      (error: unknown) => callback(error),
    );
  }

  private async read(sid: string): Promise<SessionData | null> {
    const stored = (await (await this.collectionP).findOne({ _id: sid })) as StoredSession | null;
    // A session without an expiry never expires (connect-mongo reads it so too).
    if (!stored || (stored.expires && stored.expires.getTime() <= this.now())) return null;
    const touchAfter = this.storeOptions.touchAfter ?? 0;
    return touchAfter > 0 && stored.lastModified ? ({ ...stored.session, lastModified: stored.lastModified } as SessionData) : stored.session;
  }
}
