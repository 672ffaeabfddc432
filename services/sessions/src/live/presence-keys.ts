import { PRESENCE_KEY_PART } from '@stemdeck/proto';

/** Whether the ids can form a presence key (KV keys allow only some characters; '.' separates the parts). */
export const validPresenceParts = (...parts: string[]): boolean => parts.every((part) => PRESENCE_KEY_PART.test(part));
