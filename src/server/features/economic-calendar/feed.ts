import crypto from 'node:crypto';
import { z } from 'zod';
import type { EconomicCalendarEvent, EconomicImpact } from '../../../contract/economic-calendar';

/**
 * Reading the public weekly calendar feeds traders use: a JSON list of { title, country, date, impact, forecast,
 * previous }. A feed that changes its format must not take the dashboard down, so each entry is checked on its own and
 * the ones we cannot read are left out.
 */

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? '' : String(value).trim()));

const feedEntry = z.object({
  title: z.string().trim().min(1).max(300),
  country: z.string().trim().min(1).max(10),
  // Only instants with their offset: a time without one would be read in the server's zone.
  date: z.iso.datetime({ offset: true }),
  impact: z.string().max(40).nullish(),
  forecast: text,
  previous: text,
});

const IMPACTS: Record<string, EconomicImpact> = { high: 'high', medium: 'medium', low: 'low', holiday: 'holiday' };

/** 'High', 'Medium', 'Low', 'Holiday' as the feed writes them; anything else ('Non-Economic') carries no impact. */
export function toImpact(value: string | null | undefined): EconomicImpact {
  return IMPACTS[(value ?? '').trim().toLowerCase()] ?? 'none';
}

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
    const entry = feedEntry.safeParse(raw);
    if (!entry.success) continue;
    const { title, country, date, impact, forecast, previous } = entry.data;
    const at = new Date(date).toISOString();
    const id = crypto.createHash('sha256').update(`${country}\n${at}\n${title}`).digest('hex').slice(0, 16);
    events.push({ id, title, country: country.toUpperCase(), at, impact: toImpact(impact), forecast, previous });
  }
  // A list with entries of which none reads is a changed format, not a quiet week.
  if (json.length > 0 && events.length === 0) return { ok: false, reason: 'no readable event' };
  events.sort((a, b) => a.at.localeCompare(b.at) || a.title.localeCompare(b.title));
  return { ok: true, events, skipped: json.length - events.length };
}
