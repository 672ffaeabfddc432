import { randomUUID } from 'node:crypto';
import type { Response } from 'express';

/** Every error the API returns has this shape; errorId ties a client report to the server log line. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  errorId: string;
}

export const errorBody = (statusCode: number, message: string, errorId: string = randomUUID()): ErrorBody => ({
  statusCode,
  message,
  errorId,
});

export function sendError(res: Response, statusCode: number, message: string): void {
  res.status(statusCode).json(errorBody(statusCode, message));
}
