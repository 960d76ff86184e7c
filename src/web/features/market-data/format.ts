import { offsetAt } from '../../../domain/importers/time-zone';

const pad = (value: number) => String(value).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'Mar 5, 2025 10:00' on the trader's clock. */
export function formatInstant(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  const local = new Date(ms + offsetAt(ms, timeZone));
  return `${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()}, ${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
}

/** '10:00' on the trader's clock. */
export function formatTime(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  const local = new Date(ms + offsetAt(ms, timeZone));
  return `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
}

/** 'Wed, Mar 5, 2025' for a yyyy-MM-dd day. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(Date.UTC(year, month - 1, date)).getUTCDay()];
  return `${weekday}, ${MONTHS[month - 1]} ${date}, ${year}`;
}
