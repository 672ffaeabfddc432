import { describeZodError } from '@stemdeck/platform';
import type { z, ZodTypeAny } from 'zod';
import { DomainError } from './errors/domain-error';

/** Validates a request body at the edge: 400 with one message naming each bad field. */
export function parseInput<S extends ZodTypeAny>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new DomainError(400, describeZodError(parsed.error));
  return parsed.data;
}
