import { z } from 'zod';
import { FIRST_YEAR, isInstant, isValidTimeZone, LAST_YEAR, parseCalendarDay } from '../domain/dates';
import { MAX_MONEY_CENTS, MONEY_RANGE_MESSAGE } from '../domain/cents';
import { readDollarAmount } from '../domain/risk/trade-plan';
import { parseMoneyInput } from '../domain/trades/money-input';
import { readStoredDecimal } from '../domain/trades/trade-execution';

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

/**
 * The kinds of field whose limits are the database's: one schema each, used by every contract that takes one, so that
 * a value no column can hold is a 400 naming the field before any statement runs (each of these was a 500 once:
 * a price of 1e15 whose P&L overflowed, a stop of 0.000000001 points stored as 0 against a check, a blank amount).
 * Each checks what the domain's reader of the same field checks, with the same function, and lets the value through
 * as sent: the services read it with that reader.
 */
/**
 * A price, quantity or number of points, stored as numeric(24,8): a number or its text, at most 16 digits before the
 * point; `positive` ones more than 0 once rounded to the 8 decimals stored. Blank ('' or spaces) is none unless
 * `required`. `message` words every refusal alike, where a form has its own words for the field.
 */
export const storedDecimal = (options: { positive?: boolean; required?: boolean; message?: string } = {}) =>
  z.union([z.number(), z.string().max(100)], { error: options.message ?? 'must be a number' }).superRefine((value, ctx) => {
    const read = readStoredDecimal(value, options);
    if (!read.ok) ctx.addIssue({ code: 'custom', message: options.message ?? read.message });
    else if (read.value === null && options.required) ctx.addIssue({ code: 'custom', message: options.message ?? 'must be a number' });
  });

/**
 * Dollars a trader types ('$200', '1,250.50') for a planned risk: more than 0 once rounded to the cent, at most the
 * largest amount of money stored. Blank is none unless `required`.
 */
export const dollarAmount = (options: { required?: boolean } = {}) =>
  z.union([z.number(), z.string().max(100)], { error: 'must be an amount in dollars' }).superRefine((value, ctx) => {
    const read = readDollarAmount(value);
    if (!read.ok) ctx.addIssue({ code: 'custom', message: read.message });
    else if (read.value === null && options.required) ctx.addIssue({ code: 'custom', message: 'must be an amount in dollars' });
  });

/**
 * A trade's P&L or commission as typed: text that is no number counts as 0 (the spec's rule for these two fields),
 * but an amount beyond what the money columns hold is refused.
 */
export const moneyAmount = () =>
  z
    .union([z.number(), z.string().max(100)], { error: 'must be an amount in dollars' })
    .refine((value) => Math.abs(parseMoneyInput(value)) <= MAX_MONEY_CENTS, MONEY_RANGE_MESSAGE);

/**
 * The zones the database knows (pg_timezone_names), by lower-case name, as the database spells them: the server sets
 * them when it opens its database. Node's zone data and PostgreSQL's differ: Node still reads links the time-zone
 * database has dropped (US/Pacific-New, Canada/East-Saskatchewan), and PostgreSQL refused such a stored zone in every
 * query that used it. Until they are set (in the browser, in the domain's tests) a zone Node reads is taken as typed.
 */
let databaseZones: Map<string, string> | null = null;

/**
 * The zones of the database the server opened (`select name from pg_timezone_names`); only those Node reads as well
 * are kept. A process that opens a second database (the API tests: PGlite and PostgreSQL) keeps the zones both know.
 */
export function useDatabaseTimeZones(names: Iterable<string>): void {
  const known = new Map<string, string>();
  for (const name of names) if (isValidTimeZone(name)) known.set(name.toLowerCase(), name);
  const before = databaseZones;
  databaseZones = before === null ? known : new Map([...known].filter(([key]) => before.has(key)));
}

/** The zone as the database spells it ('america/new_york' is America/New_York), or null for one it does not know. */
export function canonicalTimeZone(name: string): string | null {
  const typed = name.trim();
  if (databaseZones) return databaseZones.get(typed.toLowerCase()) ?? null;
  return isValidTimeZone(typed) ? typed : null;
}

export const TIME_ZONE_MESSAGE = 'must be an IANA time zone such as America/New_York';

/** An IANA zone the database knows, as it spells it: what every request that names a zone sends. */
export const timeZone = (message = TIME_ZONE_MESSAGE) =>
  z
    .string({ error: message })
    .max(100, message)
    .transform((value, ctx) => {
      const zone = canonicalTimeZone(value);
      if (zone === null) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return zone;
    });

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
