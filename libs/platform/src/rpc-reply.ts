import { describeZodError } from '@stemdeck/proto';
import { ZodType } from 'zod';
import { unavailableDependencyMessage } from './unavailable-dependency';

/** Written once in proto (the live protocol's validator uses it too); re-exported for the services. */
export { describeZodError };

/** An expected failure a service use-case reports; it travels back as `{ok: false, status, message}`. */
export class RpcFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFailure';
  }
}


/** Parses input at a service edge; bad input is a 400 RpcFailure naming the fields. */
export function parseOrFail<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RpcFailure(400, describeZodError(parsed.error));
  return parsed.data;
}

export type RpcReply<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

/**
 * Runs a handler and wraps its result in the reply envelope. Expected failures keep their status, an
 * unreachable dependency (the database, storage) is a 503 with a plain message; anything else propagates
 * (Nest logs it and the caller sees a 500).
 */
export async function answer<T>(run: () => Promise<T> | T): Promise<RpcReply<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof RpcFailure) return { ok: false, status: error.status, message: error.message };
    const unavailable = unavailableDependencyMessage(error);
    if (unavailable) return { ok: false, status: 503, message: unavailable };
    throw error;
  }
}
