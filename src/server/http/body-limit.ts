import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { fileTooLargeMessage, MAX_IMPORT_BYTES } from '../../domain/importers';
import { IMAGE_SIZE_ERROR, MAX_IMAGE_BYTES } from '../../domain/files/image-type';
import type { AppEnv } from './context';

/**
 * Every request body under /api is capped before it is read (a 200 MB JSON body grew the process by 690 MB
 * before its 400). A JSON body of any route fits in DEFAULT_BODY_LIMIT; the few routes that take files or very long
 * id lists are listed here with what they can need. A new route that takes more adds its line.
 */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export const BODY_LIMITS: Array<{ path: RegExp; maxBytes: number; message?: string }> = [
  // Broker files and JSON backups are sent as they are (the importers' own limit).
  { path: /^\/api\/imports(\/preview)?\/?$/, maxBytes: MAX_IMPORT_BYTES, message: fileTooLargeMessage() },
  { path: /^\/api\/trades\/import\/?$/, maxBytes: MAX_IMPORT_BYTES, message: fileTooLargeMessage() },
  // Price-bar files: a day of 1-second bars is ~80,000 rows, several MB.
  { path: /^\/api\/market\/bars(\/preview)?\/?$/, maxBytes: MAX_IMPORT_BYTES, message: fileTooLargeMessage() },
  // A file of past economic calendar weeks: a year of every currency's events is under 1 MB.
  { path: /^\/api\/economic-calendar\/events\/?$/, maxBytes: 8 * 1024 * 1024 },
  // Select All of a 100,000-trade log sends 100,000 ids.
  { path: /^\/api\/trades\/(bulk-delete|assign|bulk-edit)\/?$/, maxBytes: 100_000 * 40 + 1024 },
  // Undo of a bulk edit of as many trades: each trade's state before (account, playbook, ticks, setup, tags).
  { path: /^\/api\/trades\/bulk-restore\/?$/, maxBytes: 100_000 * 600 + 1024 },
  // A 10 MB image plus its multipart envelope.
  { path: /^\/api\/profile\/avatar\/?$/, maxBytes: MAX_IMAGE_BYTES + 64 * 1024 },
  // An image attached to a note or a trade, the same cap as the avatar's.
  { path: /^\/api\/attachments\/upload\/?$/, maxBytes: MAX_IMAGE_BYTES + 64 * 1024, message: IMAGE_SIZE_ERROR },
];

export function bodyLimitFor(path: string): { maxBytes: number; message?: string } {
  return BODY_LIMITS.find((limit) => limit.path.test(path)) ?? { maxBytes: DEFAULT_BODY_LIMIT };
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** 413 before the body is read past its route's limit, whether it announces its length or streams it. */
export function limitBodies(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    // A GET or HEAD has no body here (the adapter never reads one), and asking the request for it would build a whole
    // fetch Request for nothing: on every read, under load.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const { maxBytes, message } = bodyLimitFor(c.req.path);
    const error = message ?? `body: the request body must be at most ${megabytes(maxBytes)}`;
    return bodyLimit({
      maxSize: maxBytes,
      // The rest of the body is not read: the connection ends with the answer instead of draining it.
      onError: (ctx) => ctx.json({ error, code: 'too-large' }, 413, { Connection: 'close' }),
    })(c, next);
  };
}
