import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../errors/error-body';

export const BODY_TOO_LARGE = 'Request body is too large';

/**
 * A JSON body over `limitBytes` is refused as soon as that is known, while the client may still be sending
 * (earlyAnswerLinger then closes the connection): on its declared length, or, for a body sent in chunks with no
 * length, once more than the limit has arrived. express.json alone would read and throw away all the rest
 * first, however long the client kept sending. Registered before express.json, whose own refusal of the same
 * body then finds the answer sent.
 */
export function jsonBodyLimit(limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.is('application/json')) return next();
    const declared = req.headers['content-length'];
    if (declared !== undefined) return Number(declared) > limitBytes ? sendError(res, 413, BODY_TOO_LARGE) : next();
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limitBytes) return;
      stop();
      if (!res.headersSent) sendError(res, 413, BODY_TOO_LARGE);
    };
    const stop = () => {
      req.off('data', count);
      req.off('end', stop);
    };
    // Listening alongside express.json's own reader, attached in the same turn: neither misses a chunk.
    req.on('data', count);
    req.once('end', stop);
    next();
  };
}
