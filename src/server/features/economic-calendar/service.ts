import { ECONOMIC_CALENDAR_ERROR, type EconomicCalendarEvent, type EconomicCalendarResponse } from '../../../contract/economic-calendar';
import { HttpError } from '../../http/errors';
import type { Logger } from '../../logger';
import { parseFeed } from './feed';

export interface EconomicCalendarOptions {
  url: string;
  logger: Pick<Logger, 'warn'>;
  /** Longest one read of the feed may take. */
  timeoutMs?: number;
  /** How long a good read is served before the feed is read again. */
  freshMs?: number;
  /** After a failed read, how long we wait before trying the feed again (public feeds throttle eager readers). */
  retryMs?: number;
  /** The most bytes of a feed's answer we read. */
  maxBytes?: number;
  now?: () => number;
  /**
   * Given the events of every good read before it is served (the news filter keeps the high-impact ones). A failure
   * here is logged and does not fail the calendar.
   */
  onRead?: (events: readonly EconomicCalendarEvent[]) => Promise<void>;
}

export const FEED_TIMEOUT_MS = 10_000;
export const FEED_FRESH_MS = 30 * 60_000;
export const FEED_RETRY_MS = 60_000;
const FEED_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The economic calendar of one server process: the feed is read at most once per freshness window, whatever the
 * number of traders, and requests arriving during a read share it. When a read fails the last good week is served,
 * marked stale; with none, the trader gets the calendar's error words.
 */
export function createEconomicCalendar(options: EconomicCalendarOptions) {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  const freshMs = options.freshMs ?? FEED_FRESH_MS;
  const retryMs = options.retryMs ?? FEED_RETRY_MS;
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  let cached: { events: EconomicCalendarEvent[]; fetchedAt: number } | null = null;
  let failedAt: number | null = null;
  let reading: Promise<void> | null = null;

  async function fetchBody(): Promise<string> {
    const response = await fetch(options.url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`status ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new Error('answer too large');
    }
    const body = await response.text();
    if (body.length > maxBytes) throw new Error('answer too large');
    return body;
  }

  async function read(): Promise<void> {
    let events: EconomicCalendarEvent[];
    try {
      const parsed = parseFeed(await fetchBody());
      if (!parsed.ok) throw new Error(parsed.reason);
      if (parsed.skipped > 0) options.logger.warn({ skipped: parsed.skipped }, 'economic calendar: entries left out');
      events = parsed.events;
      cached = { events, fetchedAt: now() };
      failedAt = null;
    } catch (error) {
      failedAt = now();
      options.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'economic calendar feed could not be read');
      return;
    }
    try {
      await options.onRead?.(events);
    } catch (error) {
      options.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'economic calendar: events could not be kept');
    }
  }

  return {
    async week(): Promise<EconomicCalendarResponse> {
      const at = now();
      const fresh = cached !== null && at - cached.fetchedAt < freshMs;
      const resting = failedAt !== null && at - failedAt < retryMs;
      if (!fresh && !resting) {
        reading ??= read().finally(() => {
          reading = null;
        });
        await reading;
      }
      if (!cached) throw new HttpError(502, ECONOMIC_CALENDAR_ERROR, { code: 'economic-calendar-unavailable' });
      return {
        source: 'feed',
        events: cached.events,
        fetched_at: new Date(cached.fetchedAt).toISOString(),
        stale: now() - cached.fetchedAt >= freshMs,
      };
    },
  };
}
