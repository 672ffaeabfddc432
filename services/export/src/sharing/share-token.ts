import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: 256 bits nobody guesses. */
const TOKEN_BYTES = 32;
/** What a token looks like: 32 bytes in base64url are 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new share token, in a form that sits in a url as it is. */
export const newShareToken = (): string => randomBytes(TOKEN_BYTES).toString('base64url');

/** What the database keeps of a token: its SHA-256 in hex (a token is looked up by this, never compared as text). */
export const hashShareToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether a string can be a token we issued (anything else is unknown without a database read). */
export const looksLikeShareToken = (token: string): boolean => TOKEN_SHAPE.test(token);
