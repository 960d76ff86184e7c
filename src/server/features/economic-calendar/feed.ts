import crypto from 'node:crypto';
import { z } from 'zod';
import type { EconomicCalendarEvent, EconomicImpact } from '../../../contract/economic-calendar';
import { parseInstant } from '../../../domain/dates/instant';
import { readCsv } from '../../../domain/importers/csv';
import { textProblem } from '../../../domain/text';

/**
 * Reading the public weekly calendar feeds traders use: a JSON list of { title, country, date, impact, forecast,
 * previous }. The same reader takes a file of past weeks a trader imports (that list, or a CSV with those columns):
 * the feed is read leniently, each entry on its own, so that a feed that changes its format does not take the
 * dashboard down; a file is read strictly, all or nothing, and a refusal names the entry and the field.
 */

const DATE_MESSAGE = 'must be a date and time with its offset, as 2025-03-05T08:30:00-05:00';

const text = z
  .union([z.string(), z.number()], { error: 'must be text or a number' })
  .nullish()
  .transform((value) => (value === null || value === undefined ? '' : String(value).trim()));

/** Text a database column holds: no NUL, no lone surrogate (JSON can write both). */
const storable = (value: string, ctx: z.RefinementCtx) => {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

const feedEntry = z.object(
  {
    title: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { error: 'is required' })
      .max(300, { error: 'must be at most 300 characters' })
      .superRefine(storable),
    country: z
      .string({ error: 'is required (the currency, as USD)' })
      .trim()
      .min(1, { error: 'is required (the currency, as USD)' })
      .max(10, { error: 'must be at most 10 characters' })
      .superRefine(storable),
    // Only instants with their offset: a time without one would be read in the server's zone. A day that does not
    // exist (February 30) is refused rather than rolled into the next month.
    date: z.iso.datetime({ offset: true, error: DATE_MESSAGE }).refine((value) => parseInstant(value) !== null, { error: DATE_MESSAGE }),
    impact: z.string({ error: 'must be text' }).max(40, { error: 'must be at most 40 characters' }).nullish(),
    forecast: text,
    previous: text,
  },
  { error: 'must be an event: an object with title, country and date' },
);

const IMPACTS: Record<string, EconomicImpact> = { high: 'high', medium: 'medium', low: 'low', holiday: 'holiday' };

/** 'High', 'Medium', 'Low', 'Holiday' as the feed writes them; anything else ('Non-Economic') carries no impact. */
export function toImpact(value: string | null | undefined): EconomicImpact {
  return IMPACTS[(value ?? '').trim().toLowerCase()] ?? 'none';
}

/** One entry read: the event, or its first problem (the field, or '' for the entry as a whole, and why). */
type EntryReading = { ok: true; event: EconomicCalendarEvent } | { ok: false; field: string; message: string };

function readEntry(raw: unknown): EntryReading {
  const entry = feedEntry.safeParse(raw);
  if (!entry.success) {
    const issue = entry.error.issues[0]!;
    return { ok: false, field: issue.path.map(String).join('.'), message: issue.message };
  }
  const { title, country, date, impact, forecast, previous } = entry.data;
  const at = new Date(parseInstant(date)!).toISOString();
  // 'usd' and 'USD' are one currency: one event, one id.
  const code = country.toUpperCase();
  const id = crypto.createHash('sha256').update(`${code}\n${at}\n${title}`).digest('hex').slice(0, 16);
  return { ok: true, event: { id, title, country: code, at, impact: toImpact(impact), forecast, previous } };
}

// The instants are ISO strings of one form (UTC, milliseconds): compared as plain strings, which is their time order
// and many times faster than localeCompare over a file of years.
const byTime = (a: EconomicCalendarEvent, b: EconomicCalendarEvent) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.title.localeCompare(b.title));

export type FeedReading = { ok: true; events: EconomicCalendarEvent[]; skipped: number } | { ok: false; reason: string };

/** The events of a feed's body, ordered by time; not ok when the body is not a list or nothing in it can be read. */
export function parseFeed(body: string): FeedReading {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!Array.isArray(json)) return { ok: false, reason: 'not a list of events' };
  const events: EconomicCalendarEvent[] = [];
  for (const raw of json) {
    const entry = readEntry(raw);
    if (entry.ok) events.push(entry.event);
  }
  // A list with entries of which none reads is a changed format, not a quiet week.
  if (json.length > 0 && events.length === 0) return { ok: false, reason: 'no readable event' };
  events.sort(byTime);
  return { ok: true, events, skipped: json.length - events.length };
}

/** The columns of a calendar CSV: the feed's fields, by name, in any order and case. */
const CSV_COLUMNS = ['title', 'country', 'date', 'impact', 'forecast', 'previous'] as const;
const REQUIRED_COLUMNS = ['title', 'country', 'date'] as const;

/**
 * A refused file: `message` names where and what ('Item 3: date: must be ...', 'Row 4: title: is required'), `at` the
 * entry's place (an item counts from 1 in the JSON list; a row counts the CSV's header as row 1, as a spreadsheet shows
 * it), `field` the field when one is to blame.
 */
export type CalendarFileReading =
  { ok: true; events: EconomicCalendarEvent[] } | { ok: false; message: string; at?: { item: number } | { row: number }; field?: string };

/**
 * A file of past calendar weeks, read with the feed's own rules for each entry, but all or nothing: the first entry
 * that does not read refuses the whole file. JSON when it starts as JSON does ('[' or '{'), else CSV.
 */
export function parseCalendarFile(body: string): CalendarFileReading {
  const content = body.replace(/^\uFEFF/, '');
  const first = content.trimStart()[0];
  if (first === undefined) return { ok: false, message: 'file: the file is empty' };
  return first === '[' || first === '{' ? readJsonFile(content) : readCsvFile(content);
}

function readJsonFile(content: string): CalendarFileReading {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (error) {
    return { ok: false, message: `file: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!Array.isArray(json)) return { ok: false, message: 'file: must be a list of events, as the calendar feed answers' };
  const events: EconomicCalendarEvent[] = [];
  for (const [index, raw] of json.entries()) {
    const entry = readEntry(raw);
    const item = index + 1;
    if (!entry.ok) return refusal(`Item ${item}`, { item }, entry);
    events.push(entry.event);
  }
  return finished(events);
}

function readCsvFile(content: string): CalendarFileReading {
  const table = readCsv(content);
  const missing = REQUIRED_COLUMNS.filter((column) => !table.headers.includes(column));
  if (missing.length > 0) {
    return {
      ok: false,
      message: `file: not a JSON list of events, nor a CSV with the columns ${CSV_COLUMNS.join(', ')} (missing: ${missing.join(', ')})`,
    };
  }
  const events: EconomicCalendarEvent[] = [];
  for (const { row, cells } of table.rows) {
    const raw = Object.fromEntries(CSV_COLUMNS.map((column) => [column, cells[column] ?? '']));
    const entry = readEntry(raw);
    if (!entry.ok) return refusal(`Row ${row}`, { row }, entry);
    events.push(entry.event);
  }
  return finished(events);
}

function refusal(where: string, at: { item: number } | { row: number }, entry: { field: string; message: string }): CalendarFileReading {
  return entry.field
    ? { ok: false, message: `${where}: ${entry.field}: ${entry.message}`, at, field: entry.field }
    : { ok: false, message: `${where}: ${entry.message}`, at };
}

function finished(events: EconomicCalendarEvent[]): CalendarFileReading {
  if (events.length === 0) return { ok: false, message: 'file: no events in it' };
  return { ok: true, events: events.sort(byTime) };
}
