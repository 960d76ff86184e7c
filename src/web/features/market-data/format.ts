import { formatInZone } from '../../../domain/dates/clock';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'Mar 5, 2025 10:00' on the trader's clock. */
export function formatInstant(iso: string, timeZone: string): string {
  return formatInZone(Date.parse(iso), timeZone, 'MMM d, yyyy HH:mm') ?? '';
}

/** '10:00' on the trader's clock. */
export function formatTime(iso: string, timeZone: string): string {
  return formatInZone(Date.parse(iso), timeZone, 'HH:mm') ?? '';
}

/** 'Wed, Mar 5, 2025' for a yyyy-MM-dd day. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(Date.UTC(year, month - 1, date)).getUTCDay()];
  return `${weekday}, ${MONTHS[month - 1]} ${date}, ${year}`;
}
