import { formatInZone, getTradingDayInZone } from '../../../domain/dates';

/**
 * The trade page's labels for fills and the chart, on the trader's clock (user_preferences.time_zone). The
 * conversions are the domain's one clock; this file only picks the patterns.
 */

/** 10:03:27, and the day before it (MM/dd) when the time is not on `sameDayAs`'s day. */
export function formatClock(ms: number, timeZone: string, options: { seconds?: boolean; sameDayAs?: number } = {}): string {
  const clock = formatInZone(ms, timeZone, options.seconds === false ? 'HH:mm' : 'HH:mm:ss') ?? '';
  if (options.sameDayAs === undefined) return clock;
  const sameDay = getTradingDayInZone(ms, timeZone) === getTradingDayInZone(options.sameDayAs, timeZone);
  return sameDay ? clock : `${formatInZone(ms, timeZone, 'MM/dd')} ${clock}`;
}

/** The chart's labels: 'Mar 5' for day ticks, '10:03' or '10:03:27' for time ticks, 'Wed Mar 5 10:03:27' for the crosshair. */
export function formatDayLabel(ms: number, timeZone: string): string {
  return formatInZone(ms, timeZone, 'MMM d') ?? '';
}

export function formatCrosshair(ms: number, timeZone: string, seconds: boolean): string {
  return formatInZone(ms, timeZone, seconds ? 'EEE MMM d HH:mm:ss' : 'EEE MMM d HH:mm') ?? '';
}

/** A short name of the zone for labels, e.g. 'New York' for America/New_York. */
export function zoneLabel(timeZone: string): string {
  const city = timeZone.split('/').pop() ?? timeZone;
  return city.replace(/_/g, ' ');
}
