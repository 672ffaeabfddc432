import type { RequestHandler } from 'express';
import session from 'express-session';
import type { Connection } from 'mongoose';
import type { GatewayConfig } from '../config';
import { ACKNOWLEDGED, SESSIONS_COLLECTION } from './session-store.repository';
import { CachedSessionStore, SESSION_TOUCH_AFTER_SECONDS } from './cached-session-store';
import { SessionDocumentStore, type StoreOptions } from './session-document-store';

export { SESSION_TOUCH_AFTER_SECONDS };
import type { SessionChanges } from './session-changes';
import './session-user';

export const SESSION_MIDDLEWARE = Symbol('SESSION_MIDDLEWARE');
export const SESSION_COOKIE = 'stemdeck.sid';

/**
 * Server-side sessions in the database, so any gateway replica serves any request (each replica keeps a
 * copy of a signed-in session for a few seconds, see CachedSessionStore). The browser holds only an opaque,
 * signed, HttpOnly cookie.
 */
export function createSessionMiddleware(config: GatewayConfig, connection: Connection, changes?: Pick<SessionChanges, 'announce' | 'onChanged'>): RequestHandler {
  const ttlSeconds = config.SESSION_TTL_HOURS * 3600;
  return session({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: config.TRUST_PROXY,
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, maxAge: ttlSeconds * 1000, path: '/' },
    store: withCopies(new SessionDocumentStore(sessionStoreOptions(ttlSeconds, connection.getClient())), changes),
  });
}

/** The database store behind this replica's short-lived copies of signed-in sessions (none without `changes`). */
function withCopies(store: SessionDocumentStore, changes: Pick<SessionChanges, 'announce' | 'onChanged'> | undefined) {
  if (!changes) return store;
  const cached = new CachedSessionStore(store, (key) => changes.announce(key));
  changes.onChanged((key) => cached.forget(key));
  return cached;
}

/**
 * The store writes (set, touch, destroy) acknowledged, and never sweeps on its own: its interval sweep
 * sends `deleteMany` with `w: 0`, and a TTL index is not enforced by every MongoDB-protocol server
 * (FerretDB). ExpiredSessionSweep deletes expired sessions instead.
 */
export function sessionStoreOptions(ttlSeconds: number, client: unknown): StoreOptions {
  return {
    client: client as never,
    collectionName: SESSIONS_COLLECTION,
    ttl: ttlSeconds,
    autoRemove: 'disabled',
    writeOperationOptions: ACKNOWLEDGED,
    stringify: false,
    // A session read on every request is written back at most once a minute (its expiry moves by the week,
    // so a minute is nothing), not on every request: each write is a query the database has to run.
    touchAfter: SESSION_TOUCH_AFTER_SECONDS,
  };
}
