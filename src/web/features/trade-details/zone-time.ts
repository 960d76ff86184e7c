import { offsetAt, wallClockToInstant } from '../../../domain/importers/time-zone';

/**
 * Instants on the trader's clock (user_preferences.time_zone) for the trade page's fills and chart, with the domain's
 * Intl arithmetic (no Date subclass, which a replaced Date in tests loses).
 */
const pad = (value: number, size = 2) => String(value).padStart(size, '0');

function parts(ms: number, timeZone: string) {
  const local = new Date(ms + offsetAt(ms, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    weekday: local.getUTCDay(),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** yyyy-MM-dd HH:mm:ss on the trader's clock: how the fills editor shows and reads a time. */
export function toWallClockText(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** The instant of a yyyy-MM-dd HH:mm[:ss] typed on the trader's clock; null when it is not one. */
export function fromWallClockText(text: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return wallClockToInstant(wall, timeZone);
}

/** 10:03:27, and the day before it (MM/dd) when the time is not on `sameDayAs`'s day. */
export function formatClock(ms: number, timeZone: string, options: { seconds?: boolean; sameDayAs?: number } = {}): string {
  const p = parts(ms, timeZone);
  const clock = `${pad(p.hour)}:${pad(p.minute)}${options.seconds === false ? '' : `:${pad(p.second)}`}`;
  if (options.sameDayAs === undefined) return clock;
  const other = parts(options.sameDayAs, timeZone);
  return other.year === p.year && other.month === p.month && other.day === p.day ? clock : `${pad(p.month)}/${pad(p.day)} ${clock}`;
}

/** The chart's labels: 'Mar 5' for day ticks, '10:03' or '10:03:27' for time ticks, 'Wed Mar 5 10:03:27' for the crosshair. */
export function formatDayLabel(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  return `${MONTHS[p.month - 1]} ${p.day}`;
}

export function formatCrosshair(ms: number, timeZone: string, seconds: boolean): string {
  const p = parts(ms, timeZone);
  return `${WEEKDAYS[p.weekday]} ${MONTHS[p.month - 1]} ${p.day} ${pad(p.hour)}:${pad(p.minute)}${seconds ? `:${pad(p.second)}` : ''}`;
}

/** A short name of the zone for labels, e.g. 'New York' for America/New_York. */
export function zoneLabel(timeZone: string): string {
  const city = timeZone.split('/').pop() ?? timeZone;
  return city.replace(/_/g, ' ');
}
