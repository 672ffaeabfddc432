import type { Provider } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/** The time a use-case reads (milliseconds since the epoch); injected so tests decide when "now" is. */
export interface Clock {
  now(): number;
}
export const CLOCK = Symbol('Clock');
export const systemClock: Clock = { now: () => Date.now() };

/** Where new ids come from (documents, live connections); injected so tests know the ids they will see. */
export interface IdGenerator {
  randomUUID(): string;
}
export const ID_GENERATOR = Symbol('IdGenerator');
export const randomIds: IdGenerator = { randomUUID: () => randomUUID() };

/** The wall clock and random UUIDs, for a module to provide. */
export const CLOCK_AND_ID_BINDINGS: Provider[] = [
  { provide: CLOCK, useValue: systemClock },
  { provide: ID_GENERATOR, useValue: randomIds },
];
