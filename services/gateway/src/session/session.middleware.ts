import MongoStore from 'connect-mongo';
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { Connection } from 'mongoose';
import type { GatewayConfig } from '../config';
import './session-user';

export const SESSION_MIDDLEWARE = Symbol('SESSION_MIDDLEWARE');
export const SESSION_COOKIE = 'stemdeck.sid';

/**
 * Server-side sessions in the database, so any gateway replica serves any request. The browser holds
 * only an opaque, signed, HttpOnly cookie.
 */
export function createSessionMiddleware(config: GatewayConfig, connection: Connection): RequestHandler {
  const ttlSeconds = config.SESSION_TTL_HOURS * 3600;
  return session({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: config.TRUST_PROXY,
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, maxAge: ttlSeconds * 1000, path: '/' },
    store: MongoStore.create({
      client: connection.getClient() as never,
      collectionName: 'sessions',
      ttl: ttlSeconds,
      // Expired sessions are deleted by the store on an interval rather than by a TTL index, which
      // not every MongoDB-protocol server (FerretDB) enforces.
      autoRemove: 'interval',
      autoRemoveInterval: 10,
      stringify: false,
    }),
  });
}
