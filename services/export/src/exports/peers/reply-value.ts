import type { Reply } from '@stemdeck/proto';

/** A peer's reply value; null for 404 (absent for this owner); anything else unexpected is an error. */
export function valueOrNull<T>(reply: Reply<T>, subject: string): T | null {
  if (reply.ok) return reply.value;
  if (reply.status === 404) return null;
  throw new Error(`${subject} answered ${reply.status}: ${reply.message}`);
}
