import { MemoryStore, type SessionData } from 'express-session';
import { CachedSessionStore, SESSION_COPY_MS, SESSION_TOUCH_AFTER_SECONDS, sessionKey } from './cached-session-store';

/** A memory store that counts its reads and touches. */
class CountingStore extends MemoryStore {
  reads = 0;
  touches = 0;
  override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    this.reads++;
    super.get(sid, callback);
  }
  override touch(sid: string, session: SessionData, callback?: () => void): void {
    this.touches++;
    super.touch(sid, session, callback);
  }
}

const cookie = { originalMaxAge: 3_600_000, expires: new Date(Date.now() + 3_600_000), httpOnly: true, path: '/' };
const signedIn = { cookie, user: { id: 'u1', name: 'Demo' } } as unknown as SessionData;
const signingIn = { cookie, oidc: { state: 's', nonce: 'n' } } as unknown as SessionData;

const call = <T>(work: (done: (error: unknown, value?: T) => void) => void) =>
  new Promise<T | undefined>((resolve, reject) => work((error, value) => (error ? reject(error) : resolve(value))));

function setUp() {
  let now = 1_000_000;
  const inner = new CountingStore();
  const announced: string[] = [];
  const store = new CachedSessionStore(inner, (key) => announced.push(key), () => now);
  const get = (sid: string) => call<SessionData | null>((done) => store.get(sid, done));
  const put = (sid: string, session: SessionData) => call<void>((done) => inner.set(sid, session, (error) => done(error)));
  return { inner, store, announced, get, put, advance: (ms: number) => (now += ms), at: () => now };
}

describe('CachedSessionStore', () => {
  it('answers a signed-in session from its copy for a few seconds, then reads the database again', async () => {
    const { inner, get, put, advance } = setUp();
    await put('sid-1', signedIn);
    for (let i = 0; i < 5; i++) expect(await get('sid-1')).toMatchObject({ user: { id: 'u1' } });
    expect(inner.reads).toBe(1);
    advance(SESSION_COPY_MS);
    await get('sid-1');
    expect(inner.reads).toBe(2);
  });

  it('never copies a session in the middle of a sign-in, nor a missing one', async () => {
    const { inner, get, put } = setUp();
    await put('sid-2', signingIn);
    await get('sid-2');
    await get('sid-2');
    expect(await get('missing')).toBeFalsy();
    expect(await get('missing')).toBeFalsy();
    expect(inner.reads).toBe(4);
  });

  it('a sign-out or a change here drops the copy and tells the other replicas by a hash of the id, not the id', async () => {
    const { inner, store, announced, get, put } = setUp();
    await put('sid-3', signedIn);
    await get('sid-3');
    await call<void>((done) => store.destroy('sid-3', (error) => done(error)));
    expect(await get('sid-3')).toBeFalsy();
    expect(announced).toEqual([sessionKey('sid-3')]);
    expect(announced[0]).not.toContain('sid-3');
    await call<void>((done) => store.set('sid-3', signedIn, (error) => done(error)));
    await get('sid-3');
    expect(announced).toHaveLength(2);
    expect(inner.reads).toBe(3);
  });

  it('does not keep a read that a sign-out overtook (here or announced by the other replica)', async () => {
    for (const overtake of ['destroy here', 'announced'] as const) {
      const inner = new MemoryStore();
      let release: () => void = () => undefined;
      // A database read that answers only when told to, with the session as it was when asked.
      const slow = Object.assign(Object.create(inner) as MemoryStore, {
        get(sid: string, callback: (error: unknown, session?: SessionData | null) => void) {
          inner.get(sid, (error, session) => {
            release = () => callback(error, session);
          });
        },
      });
      const store = new CachedSessionStore(slow, () => undefined);
      await call<void>((done) => inner.set('sid-7', signedIn, (error) => done(error)));
      const pending = call<SessionData | null>((done) => store.get('sid-7', done));
      if (overtake === 'destroy here') await call<void>((done) => store.destroy('sid-7', (error) => done(error)));
      else {
        await call<void>((done) => inner.destroy('sid-7', (error) => done(error)));
        store.forget(sessionKey('sid-7'));
      }
      await new Promise((resolve) => setImmediate(resolve));
      release();
      expect(await pending).toMatchObject({ user: { id: 'u1' } }); // the request already under way saw it
      const next = call<SessionData | null>((done) => store.get('sid-7', done));
      await new Promise((resolve) => setImmediate(resolve));
      release();
      expect(await next).toBeFalsy();
    }
  });

  it("another replica's change drops this replica's copy at once", async () => {
    const { inner, store, get, put } = setUp();
    await put('sid-4', signedIn);
    await get('sid-4');
    store.forget(sessionKey('sid-4'));
    await put('sid-4', { ...signedIn, user: { id: 'u1', name: 'Renamed' } } as unknown as SessionData);
    expect(await get('sid-4')).toMatchObject({ user: { name: 'Renamed' } });
    expect(inner.reads).toBe(2);
  });

  it('hands out copies: what a request changes stays out of the next one until it is saved', async () => {
    const { get, put } = setUp();
    await put('sid-5', signedIn);
    const first = (await get('sid-5')) as SessionData & { user: { name: string } };
    first.user.name = 'changed in a request';
    expect(await get('sid-5')).toMatchObject({ user: { name: 'Demo' } });
  });

  it("moves the copy's write time when the store writes the expiry back, so the next requests do not write again", async () => {
    const { inner, store, get, put, at, advance } = setUp();
    await put('sid-6', { ...signedIn, lastModified: new Date(at() - (SESSION_TOUCH_AFTER_SECONDS + 1) * 1000) } as unknown as SessionData);
    const session = (await get('sid-6'))!;
    await call<void>((done) => store.touch('sid-6', session, (error) => done(error)));
    expect(inner.touches).toBe(1);
    advance(1000);
    expect(((await get('sid-6')) as { lastModified: Date }).lastModified.getTime()).toBe(at() - 1000);
  });
});
