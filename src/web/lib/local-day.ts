import { formatCalendarDay, type CalendarDay } from '../../domain/dates';

/** The browser's own calendar day of an instant (its local time zone), as yyyy-MM-dd. */
export function localDayOf(instant: Date): CalendarDay {
  return formatCalendarDay(instant.getFullYear(), instant.getMonth() + 1, instant.getDate());
}

/** The browser's local time of an instant as HH:mm (24-hour). */
export function localTimeOf(instant: Date): string {
  return `${String(instant.getHours()).padStart(2, '0')}:${String(instant.getMinutes()).padStart(2, '0')}`;
}
