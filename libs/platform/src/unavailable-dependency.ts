/**
 * Recognises an error that means a dependency did not answer (the database, object storage, the identity
 * provider, a service), as opposed to a fault in the request or the code: such a request answers 503 with a
 * plain message instead of a 500, and the client may try again once the dependency is back.
 */
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';

/** What the driver throws while the database is unreachable or mongoose gave up waiting for it. */
const DATABASE_ERROR_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/** Socket-level failures (a refused or reset connection, a lookup or connect timeout). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/** nats.js error codes that mean the server or the subject's subscribers are not there right now. */
const NATS_UNAVAILABLE_CODES = new Set(['503', 'TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT', 'DISCONNECT']);

export const DATABASE_UNAVAILABLE = 'The studio cannot reach its database right now. Nothing was changed; please try again in a moment.';
export const SERVICE_UNAVAILABLE = 'The studio cannot reach one of its services right now. Nothing was changed; please try again in a moment.';

/** The 503 message for an error caused by an unreachable dependency, or undefined for any other error. */
export function unavailableDependencyMessage(error: unknown): string | undefined {
  // Nest's NATS client refuses every request with this text (not an Error) while its connection is down.
  if (typeof error === 'string') return /^Error: Connection lost\b/.test(error) ? SERVICE_UNAVAILABLE : undefined;
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { name, message, code } = cause as { name?: string; message?: string; code?: unknown };
    if (name && DATABASE_ERROR_NAMES.has(name)) return DATABASE_UNAVAILABLE;
    // mongoose, when the connection is down: "Operation `users.findOne()` buffering timed out after 10000ms".
    if (name === 'MongooseError' && /buffering timed out/.test(message ?? '')) return DATABASE_UNAVAILABLE;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return SERVICE_UNAVAILABLE;
    // A service that did not answer in time (rxjs' timeout), or NATS itself away: no responders, a request
    // timeout, a connection closed or lost (a JetStream publish while the server restarts, for instance).
    if (name === 'TimeoutError' || (name === 'NatsError' && typeof code === 'string' && NATS_UNAVAILABLE_CODES.has(code))) return SERVICE_UNAVAILABLE;
    // Nest's NATS client once the server is back but before the service has subscribed again (NATS's
    // no-responders answer, an empty message, which the client turns into this exception).
    if (cause instanceof EmptyResponseException) return SERVICE_UNAVAILABLE;
    // AggregateError (a connection tried on several addresses) carries the socket errors in `errors`.
    const inner = (cause as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((e) => unavailableDependencyMessage(e))) return SERVICE_UNAVAILABLE;
  }
  return undefined;
}
