import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';

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
 * signed out, storage away) is followed by a lingering close, so the client reads it. Closing at once with
 * the client's bytes still unread makes the kernel reset the connection, and a client still sending can see
 * the reset before it reads the answer (on the test stack 3 of 150 refused 6 MB uploads ended as "connection
 * reset" with no answer); left alone, Node would instead read and throw away the whole rest of the body,
 * however large. So what still arrives is read and thrown away until the client pauses for `idleMs`,
 * `maxBytes` more have come or `maxMs` have passed, and then the connection is closed. A client that finishes
 * its body in that time keeps its connection, unless it asked for it to close: Node then closes it after the
 * answer, and here it only half-closes (the answer is all sent) and the linger closes the rest.
 */
export function earlyAnswerLinger(limits: EarlyAnswerLimits = EARLY_ANSWER_LIMITS) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Only a request with a body can be answered before it has arrived.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    // Before Node's own end-of-answer step, which closes a connection the client asked to close.
    res.prependOnceListener('finish', () => {
      if (!req.complete && !req.destroyed) linger(req, limits);
    });
    next();
  };
}

/** How often a lingering connection is looked at. */
const LINGER_TICK_MS = 50;

function linger(req: Request, { idleMs, maxMs, maxBytes }: EarlyAnswerLimits): void {
  const socket = req.socket;
  // While it lingers, Node's close of a connection the client asked to close is a half-close: the answer goes
  // out, the client's bytes are still read.
  const halfClose: Pick<Socket, 'destroySoon'> = { destroySoon: () => void socket.end() };
  Object.assign(socket, halfClose);
  // Node throws away an unread body itself, below the request's events: the socket's byte count shows it.
  const startBytes = socket.bytesRead;
  const endsAt = performance.now() + maxMs;
  let seenBytes = startBytes;
  let quietSince = performance.now();
  const stop = () => {
    clearInterval(tick);
    socket.off('close', stop);
    // Node's own again, for the answers to come on this connection.
    delete (socket as Partial<Pick<Socket, 'destroySoon'>>).destroySoon;
  };
  const tick = setInterval(() => {
    // The body has all come: the connection carries the next request as usual (or, asked to, ends).
    if (req.complete) {
      stop();
      if (!socket.writable) socket.destroy();
      return;
    }
    const now = performance.now();
    if (socket.bytesRead !== seenBytes) [seenBytes, quietSince] = [socket.bytesRead, now];
    if (now - quietSince >= idleMs || now >= endsAt || seenBytes - startBytes > maxBytes) socket.destroy();
  }, LINGER_TICK_MS).unref();
  socket.on('close', stop);
  // A body piped to a parser that has let go of it is paused: it flows again, to nowhere.
  req.resume();
}
