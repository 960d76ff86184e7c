import crypto from 'node:crypto';

/**
 * A link's secret (a share link, a mentor's invite): 32 random bytes (256 bits) as base64url, 43 characters. Only its
 * SHA-256 is stored, so a copy of the database (a backup, an export) opens nothing.
 */
export const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const newSecretToken = (): string => crypto.randomBytes(TOKEN_BYTES).toString('base64url');

/** Whether `text` could be a token at all: anything else is answered as an unknown one without asking the database. */
export const isTokenShaped = (text: string): boolean => TOKEN_SHAPE.test(text);

export const hashSecretToken = (token: string): string => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

/** The hash's first 16 hex digits: enough to find the one row, never enough to open it. */
export const lookupOf = (hash: string): string => hash.slice(0, 16);

/** The whole stored hash against the presented one, in time that does not depend on where they differ. */
export function sameHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && a.length > 0 && crypto.timingSafeEqual(a, b);
}
