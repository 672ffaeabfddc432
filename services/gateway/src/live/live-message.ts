/** A message on /ws: a JSON object with a string `type`, plus fields of that type. */
export interface LiveMessage {
  type: string;
  [field: string]: unknown;
}

export type ParsedLiveMessage = { ok: true; message: LiveMessage } | { ok: false; error: string };

export const MAX_LIVE_MESSAGE_BYTES = 64 * 1024;

/** Parses one frame; never throws, so a bad frame costs the sender an error reply, not the socket. */
export function parseLiveMessage(data: Buffer | string, isBinary: boolean): ParsedLiveMessage {
  if (isBinary) return { ok: false, error: 'Binary frames are not accepted; send JSON text' };
  let value: unknown;
  try {
    value = JSON.parse(data.toString());
  } catch {
    return { ok: false, error: 'Malformed message: not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'Malformed message: expected a JSON object' };
  }
  const { type } = value as { type?: unknown };
  if (typeof type !== 'string' || type === '') {
    return { ok: false, error: 'Malformed message: missing string field "type"' };
  }
  return { ok: true, message: value as LiveMessage };
}
