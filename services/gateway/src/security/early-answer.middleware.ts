import type { NextFunction, Request, Response } from 'express';

export interface EarlyAnswerLimits {
  /** The client has sent nothing for this long: it has stopped, the connection is closed. */
  idleMs: number;
  /** The connection is closed this long after the answer at the latest. */
  maxMs: number;
  /** ...or once this much more of the body has arrived (and been thrown away). */
  maxBytes: number;
}

export const EARLY_ANSWER_LIMITS: EarlyAnswerLimits = { idleMs: 1000, maxMs: 5000, maxBytes: 16 * 1024 * 1024 };

/**
 * An answer sent before the request's body has all arrived (a refused upload: over the quota or the limit,
 * signed out, storage away) is followed by a lingering close, as web servers do, so the client reads it.
 * Closing at once with the client's bytes still unread makes the kernel reset the connection, and a client
 * still sending can see the reset before it reads the answer (on loopback 1–4 % of refused 6 MB uploads then
 * ended as "connection reset" with no answer); left alone, Node would instead read and throw away the whole
 * rest of the body, however large. So what still arrives is read and thrown away until the client pauses for
 * `idleMs`, `maxBytes` more have come or `maxMs` have passed, and then the connection is closed. A client
 * that finishes its body in that time keeps its connection.
 */
export function earlyAnswerLinger(limits: EarlyAnswerLimits = EARLY_ANSWER_LIMITS) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Only a request with a body can be answered before it has arrived.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    res.once('finish', () => {
      if (!req.complete && !req.destroyed) linger(req, limits);
    });
    next();
  };
}

/** How often a lingering connection is looked at. */
const LINGER_TICK_MS = 50;

function linger(req: Request, { idleMs, maxMs, maxBytes }: EarlyAnswerLimits): void {
  const socket = req.socket;
  // Node throws away an unread body itself, below the request's events: the socket's byte count shows it.
  const startBytes = socket.bytesRead;
  const endsAt = Date.now() + maxMs;
  let seenBytes = startBytes;
  let quietSince = Date.now();
  const tick = setInterval(() => {
    // The body has all come: the connection carries the next request as usual.
    if (req.complete) return clearInterval(tick);
    const now = Date.now();
    if (socket.bytesRead !== seenBytes) [seenBytes, quietSince] = [socket.bytesRead, now];
    if (now - quietSince >= idleMs || now >= endsAt || seenBytes - startBytes > maxBytes) socket.destroy();
  }, LINGER_TICK_MS);
  socket.once('close', () => clearInterval(tick));
  // A body piped to a parser that has let go of it is paused: it flows again, to nowhere.
  req.resume();
}
