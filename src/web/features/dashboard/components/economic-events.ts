import type { EconomicCalendarEvent, EconomicCalendarResponse, EconomicImpact } from '../../../../contract/economic-calendar';
import { addDays, formatInZone, getStartOfWeekSunday, getTradingDayInZone, type CalendarDay } from '../../../../domain/dates';
import { apiFetch } from '../../../lib/api';

/** An economic event of the dashboard's list: from the server's calendar feed, or the sample week. */
export interface EconomicEvent {
  id: string;
  title: string;
  /** HH:mm in the trader's zone. */
  time: string;
  impact: EconomicImpact;
  forecast: string;
  previous: string;
  country: string;
  day: CalendarDay;
}

/** A local mock with a 500 ms delay, no network call. */
export const ECONOMIC_EVENTS_DELAY_MS = 500;

const WEEK_TEMPLATE: ReadonlyArray<Omit<EconomicEvent, 'id' | 'day' | 'country'> & { weekday: number }> = [
  { weekday: 0, time: '10:00', title: 'ISM Manufacturing PMI', impact: 'high', forecast: '49.5', previous: '49.2' },
  { weekday: 0, time: '10:00', title: 'Construction Spending m/m', impact: 'low', forecast: '0.2%', previous: '0.1%' },
  { weekday: 1, time: '10:00', title: 'JOLTS Job Openings', impact: 'high', forecast: '7.40M', previous: '7.44M' },
  { weekday: 1, time: '13:00', title: '10-y Bond Auction', impact: 'medium', forecast: '-', previous: '4.25%' },
  { weekday: 2, time: '08:15', title: 'ADP Non-Farm Employment Change', impact: 'high', forecast: '145K', previous: '152K' },
  { weekday: 2, time: '10:30', title: 'Crude Oil Inventories', impact: 'medium', forecast: '-1.1M', previous: '2.3M' },
  { weekday: 2, time: '14:00', title: 'FOMC Meeting Minutes', impact: 'high', forecast: '-', previous: '-' },
  { weekday: 3, time: '08:30', title: 'CPI m/m', impact: 'high', forecast: '0.3%', previous: '0.2%' },
  { weekday: 3, time: '08:30', title: 'Unemployment Claims', impact: 'medium', forecast: '221K', previous: '218K' },
  { weekday: 3, time: '10:30', title: 'Natural Gas Storage', impact: 'low', forecast: '45B', previous: '52B' },
  { weekday: 4, time: '08:30', title: 'Non-Farm Employment Change', impact: 'high', forecast: '160K', previous: '142K' },
  { weekday: 4, time: '08:30', title: 'Unemployment Rate', impact: 'high', forecast: '4.2%', previous: '4.2%' },
  { weekday: 4, time: '10:00', title: 'Prelim UoM Consumer Sentiment', impact: 'medium', forecast: '70.1', previous: '69.4' },
];

/**
 * The mock trading week of `today` (Monday to Friday), in Eastern time like the real calendar it imitates. Its week
 * starts on Sunday, as the markets' does: on a Sunday 'This Week' is the week ahead, not the one just ended.
 */
export function buildMockEconomicEvents(today: CalendarDay): EconomicEvent[] {
  const monday = addDays(getStartOfWeekSunday(today), 1);
  return WEEK_TEMPLATE.map((e, i) => {
    const { weekday, ...event } = e;
    return { ...event, id: `mock-${i}`, country: 'USD', day: addDays(monday, weekday) };
  });
}

export function loadMockEconomicEvents(today: CalendarDay): Promise<EconomicEvent[]> {
  return new Promise((resolve) => window.setTimeout(() => resolve(buildMockEconomicEvents(today)), ECONOMIC_EVENTS_DELAY_MS));
}

/** The card's events: the sample week (labelled as mock data), or the feed's, read by the server. */
export type EconomicWeek =
  { source: 'sample'; events: EconomicEvent[] } | { source: 'feed'; stale: boolean; fetchedAt: string; events: EconomicCalendarEvent[] };

/** The server's calendar when it reads a feed; otherwise the local mock, as the card has always shown it. */
export async function loadEconomicWeek(today: CalendarDay): Promise<EconomicWeek> {
  const answer = await apiFetch<EconomicCalendarResponse>('/api/economic-calendar');
  if (answer.source === 'sample') return { source: 'sample', events: await loadMockEconomicEvents(today) };
  return { source: 'feed', stale: answer.stale, fetchedAt: answer.fetched_at, events: answer.events };
}

/**
 * The feed's USD events of the week of `today` (from its Sunday, as the markets' week starts), with their day and
 * time on the trader's clock. An empty forecast or previous (a speech, a holiday) reads as a dash.
 */
export function feedEventsOfWeek(events: readonly EconomicCalendarEvent[], today: CalendarDay, timeZone: string): EconomicEvent[] {
  const first = getStartOfWeekSunday(today);
  const last = addDays(first, 6);
  const shown: EconomicEvent[] = [];
  for (const e of events) {
    if (e.country !== 'USD') continue;
    const day = getTradingDayInZone(e.at, timeZone);
    const time = formatInZone(e.at, timeZone, 'HH:mm');
    if (!day || !time || day < first || day > last) continue;
    shown.push({
      id: e.id,
      title: e.title,
      time,
      impact: e.impact,
      forecast: e.forecast || '-',
      previous: e.previous || '-',
      country: e.country,
      day,
    });
  }
  return shown.sort((a, b) => a.day.localeCompare(b.day) || a.time.localeCompare(b.time));
}
