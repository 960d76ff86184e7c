/**
 * Telling "the database is away" (restarting, failing over, not up yet, unreachable) from every other failure
 *. Such a request is answered 503 with Retry-After, and at start-up the server waits for the
 * database instead of exiting at once.
 */

/** What the trader reads while the database is away. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable right now. Please try again in a few seconds.';

/** Seconds a client should wait before trying again: a PostgreSQL restart takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server going away or not taking connections: admin_shutdown (57P01, sent to every connection by a
 * fast shutdown or restart), crash_shutdown, cannot_connect_now (starting up, shutting down, in recovery),
 * too_many_connections; and class 08, connection exceptions.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's own words for a connection that ended or could not be had in time. */
const CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * Whether `error`, or anything it wraps (Drizzle's "Failed query" and better-auth's errors keep the driver's error
 * as `cause`; a connection attempt to each address of a host fails as an AggregateError), says the database is away.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableReason(error) !== null;
}

/**
 * The part of `error` that says the database is away, as a code (ECONNREFUSED, 57P01) or node-postgres's words;
 * null when nothing does. Safe to log: never a query or its values.
 */
export function unavailableReason(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== 'object' || depth > 8) return null;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || (/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01'))) {
    return code;
  }
  if (typeof message === 'string') {
    const words = CLIENT_MESSAGES.find((start) => message.startsWith(start));
    if (words) return message.slice(0, 100);
  }
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const reason = unavailableReason(inner, depth + 1);
      if (reason) return reason;
    }
  }
  return unavailableReason(cause, depth + 1);
}

/** The server gave up waiting for the database at start-up; its message names the address, never the password. */
export class DatabaseUnreachableError extends Error {
  constructor(url: string, waitedSeconds: number, cause: unknown) {
    const target = describeTarget(url);
    const reason = describeReason(cause);
    super(
      `Could not reach the database at ${target} within ${waitedSeconds} s${reason ? ` (${reason})` : ''}. ` +
        'Check that PostgreSQL is running and that DATABASE_URL points to it; DATABASE_START_TIMEOUT sets how long to wait.',
    );
    this.name = 'DatabaseUnreachableError';
  }
}

/** host:port of a connection string, for messages and logs. */
export function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** A short reason: the driver's code and message, without the stack (an AggregateError's first inner error). */
export function describeReason(error: unknown): string {
  if (!error || typeof error !== 'object') return '';
  const inner = (error as { errors?: unknown[] }).errors?.[0] ?? error;
  const { code, message } = inner as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string' && !text.includes(code)) return text ? `${code}: ${text}` : code;
  return text;
}
