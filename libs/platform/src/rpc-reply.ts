import { ZodError, ZodType } from 'zod';

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

/** "name: Required; duration: Expected number, received string" — one line naming each bad field. */
export function describeZodError(error: ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** Parses input at a service edge; bad input is a 400 RpcFailure naming the fields. */
export function parseOrFail<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RpcFailure(400, describeZodError(parsed.error));
  return parsed.data;
}

export type RpcReply<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

/**
 * Runs a handler and wraps its result in the reply envelope. Expected failures keep their status;
 * anything else propagates (Nest logs it and the caller sees a 500).
 */
export async function answer<T>(run: () => Promise<T> | T): Promise<RpcReply<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof RpcFailure) return { ok: false, status: error.status, message: error.message };
    throw error;
  }
}
