import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../db/unavailable';

/** An error with a status and a message meant for the trader; routes map it to `{ error }`. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** `field: ...` or `Row 3: field: ...`: how a 400's message names its field. */
const NAMED_FIELD = /^(?:Row \d+: )?([A-Za-z_][\w.]*): (.*)$/s;

/**
 * A 400 for the trader. Its message names the field ("trade_date: must be ..."); `fields` says the same for clients
 * that read it, taken from the message unless the caller gives it (as it must for a message the spec words).
 */
export const badRequest = (message: string, details?: Record<string, unknown>) => {
  const named = details?.fields === undefined ? NAMED_FIELD.exec(message) : null;
  return new HttpError(400, message, named ? { ...details, fields: [{ field: named[1]!, message: named[2]! }] } : details);
};
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, details?: Record<string, unknown>) => new HttpError(409, message, details);
export const unauthorized = (message = 'Not authenticated') => new HttpError(401, message);

/** 503 with Retry-After and words the trader can act on, while the database is away. */
export function databaseUnavailable(c: Context) {
  c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  return c.json({ error: DATABASE_UNAVAILABLE_MESSAGE, code: 'database-unavailable' }, 503);
}
