import { createHash } from 'node:crypto';
import { Store, type SessionData } from 'express-session';

/** The least time between two writes of an unchanged session's expiry (the store's `touchAfter`). */
export const SESSION_TOUCH_AFTER_SECONDS = 60;
/** How long a replica answers a signed-in session from its own copy before reading the database again. */
export const SESSION_COPY_MS = 5000;
const MAX_COPIES = 10_000;

/** A session id as it travels between replicas (never the id itself: it is the cookie's secret). */
export const sessionKey = (sid: string): string => createHash('sha256').update(sid).digest('base64url');

/**
 * The session store with a short-lived copy of each signed-in session in this replica's memory: a page's
 * requests come in bursts, and each one read the session from the database (with FerretDB, a scan of the
 * whole sessions collection). A copy lives SESSION_COPY_MS; any change this replica makes (a sign-in, a
 * sign-out, a write-back of the expiry) drops it here and is announced (`announce`), so the other replicas
 * drop theirs at once (`forget`); were an announcement lost, a signed-out session would still be answered
 * by another replica for at most SESSION_COPY_MS. Only signed-in sessions are copied: one in the middle of a
 * sign-in (its state and nonce) is always read from the database, wherever the identity provider sends the
 * browser back.
 */
export class CachedSessionStore extends Store {
  private readonly copies = new Map<string, { session: SessionData; until: number }>();
  /** Counts every change seen here or announced: a read that a change overtook is not kept as a copy. */
  private changes = 0;

  constructor(
    private readonly inner: Store,
    private readonly announce: (key: string) => void,
    private readonly now: () => number = Date.now,
    private readonly copyMs: number = SESSION_COPY_MS,
  ) {
    super();
  }

  /** Another replica changed or ended this session: the next request reads it from the database. */
  forget(key: string): void {
    this.changes++;
    this.copies.delete(key);
  }

  get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    const key = sessionKey(sid);
    const copy = this.copies.get(key);
    if (copy && copy.until > this.now()) return callback(null, structuredClone(copy.session));
    const changesBefore = this.changes;
    this.inner.get(sid, (error, session) => {
      if (error) return callback(error);
      // Kept only if no session changed meanwhile (it may have been this one: signed out while being read).
      if (session && (session as { user?: unknown }).user && this.changes === changesBefore) this.remember(key, session);
      else this.copies.delete(key);
      callback(null, session);
    });
  }

  set(sid: string, session: SessionData, callback?: (error?: unknown) => void): void {
    this.changes++;
    this.copies.delete(sessionKey(sid));
    this.inner.set(sid, session, (error) => {
      this.changed(sid);
      callback?.(error);
    });
  }

  destroy(sid: string, callback?: (error?: unknown) => void): void {
    this.changes++;
    this.copies.delete(sessionKey(sid));
    this.inner.destroy(sid, (error) => {
      this.changed(sid);
      callback?.(error);
    });
  }

  /**
   * Called on every request; the store writes the expiry back only when its last write is older than
   * SESSION_TOUCH_AFTER_SECONDS, and then so must the copy's write time be moved (or every request would
   * write again until the copy runs out).
   */
  touch(sid: string, session: SessionData, callback?: (error?: unknown) => void): void {
    if (!this.inner.touch) return callback?.();
    this.inner.touch(sid, session, ((error?: unknown) => {
      const copy = this.copies.get(sessionKey(sid));
      const written = (copy?.session as { lastModified?: Date | string } | undefined)?.lastModified;
      if (!error && copy && (!written || this.now() - new Date(written).getTime() >= SESSION_TOUCH_AFTER_SECONDS * 1000)) {
        (copy.session as { lastModified?: Date }).lastModified = new Date(this.now());
      }
      callback?.(error);
    }) as () => void);
  }

  /** Written (or failed to be): dropped here again (a read meanwhile may have copied the old one), and announced. */
  private changed(sid: string): void {
    this.changes++;
    const key = sessionKey(sid);
    this.copies.delete(key);
    this.announce(key);
  }

  private remember(key: string, session: SessionData): void {
    const now = this.now();
    if (this.copies.size >= MAX_COPIES) {
      for (const [other, copy] of this.copies) if (copy.until <= now) this.copies.delete(other);
      if (this.copies.size >= MAX_COPIES) this.copies.clear();
    }
    this.copies.set(key, { session: structuredClone(session), until: now + this.copyMs });
  }
}
