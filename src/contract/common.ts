import { z } from 'zod';
import { FIRST_YEAR, isInstant, LAST_YEAR, parseCalendarDay } from '../domain/dates';

/**
 * Pieces every contract shares. A contract imports only zod and src/domain: the server, the API tests and
 * (types only) the web app import it, so it must pull in neither server nor browser code.
 */

/** Money and other exact amounts on the wire: a decimal string such as "-12.50". */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'an exact decimal string');
/** A timestamp as the server writes it (ISO 8601, UTC). */
export const instant = z.iso.datetime();
/** yyyy-MM-dd as the server writes it. */
export const day = z.iso.date();

/**
 * Every date and time a request carries goes through these two, never through `new Date()` or Date.parse, which take
 * '2026', '2026-02-30' (as March 2) and year 0: PostgreSQL refuses those, and each was a 500.
 */

/** A calendar day as yyyy-MM-dd that exists, of years 1-9999 (year 0 is none that PostgreSQL knows). */
export const isRequestDay = (value: unknown): value is string => {
  const parts = parseCalendarDay(value);
  return parts !== null && parts.year >= FIRST_YEAR && parts.year <= LAST_YEAR;
};
export const calendarDay = (message = 'must be a date as yyyy-MM-dd') => z.string({ error: message }).refine(isRequestDay, message);

/** An instant with its zone (ISO 8601, or PostgreSQL's text form), of a real day and time, within years 1-9999. */
export const instantInput = (message = 'must be an ISO timestamp with a time zone, e.g. 2025-03-03T14:35:00Z') =>
  z.string({ error: message }).refine(isInstant, message);

/** Which trades a read covers: all, those without an account, or one account. */
export const accountFilter = z
  .union([z.literal('all'), z.literal('unassigned'), z.uuid('account must be all, unassigned or an account id')])
  .default('all');

/** Every error the API answers: the message, and for a bad field which one. */
export const apiError = z.looseObject({
  error: z.string(),
  fields: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiError>;

/**
 * A contract whose shapes are a domain module's types says the same as those types, both ways: `agree<Same<A,
 * B>>(true)`
 * fails the type check when either side drifts.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const agree = <T extends true>(value: T) => value;

/**
 * Trades left out, as comma-separated ids: those whose delete waits for Undo in the browser, so that the
 * figures agree with the list while the toast shows. Ids of no trade of this trader change nothing.
 */
export const awaitingUndo = z
  .string()
  .max(50 * 37, 'exclude must be at most 50 trade ids')
  .optional()
  .transform((value) => (value ? value.split(',') : []))
  .pipe(z.array(z.uuid('exclude must be trade ids separated by commas')).max(50, 'exclude must be at most 50 trade ids'));
