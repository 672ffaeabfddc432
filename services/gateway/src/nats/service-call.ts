import type { NatsRpcClient } from '@stemdeck/platform';
import type { Reply } from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { DomainError } from '../errors/domain-error';

/** One request to a service: its reply validated, an expected failure (404, 409, ...) rethrown as a DomainError with its status. */
export async function callService<T>(rpc: NatsRpcClient, subject: string, payload: unknown, schema: ZodType<Reply<T>>, timeoutMs: number): Promise<T> {
  const reply = await rpc.request(subject, payload, schema, timeoutMs);
  if (!reply.ok) throw new DomainError(reply.status, reply.message);
  return reply.value;
}
