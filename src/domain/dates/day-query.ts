import { formatCalendarDay, getDaysInMonth, parseCalendarDay, type CalendarDay } from './calendar-day';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** 'mar', 'march', 'sept' -> 3 (at least three letters of the name); anything else -> null. */
function monthOf(word: string): number | null {
  const lower = word.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return null;
  const index = MONTHS.findIndex((name) => name.startsWith(lower));
  return index >= 0 ? index + 1 : null;
}

function dayOf(year: number, month: number, day: number): CalendarDay | null {
  if (!Number.isInteger(year) || year < 1900 || year > 2999 || month < 1 || month > 12) return null;
  if (!Number.isInteger(day) || day < 1 || day > getDaysInMonth(year, month)) return null;
  return formatCalendarDay(year, month, day);
}

/** A date written without its year is the last one on or before today: a trader searches trades already made. */
function latestBy(month: number, day: number, today: CalendarDay): CalendarDay | null {
  const now = parseCalendarDay(today);
  if (!now) return null;
  for (const year of [now.year, now.year - 1, now.year - 2, now.year - 3, now.year - 4]) {
    const candidate = dayOf(year, month, day);
    if (candidate && candidate <= today) return candidate;
  }
  return null;
}

const fullYear = (text: string) => (text.length === 2 ? 2000 + Number(text) : Number(text));

/**
 * The trading day a search box's text names, or null when it names none: '2026-03-02', '3/2/2026', '3/2/26', '3/2'
 * (month first, as the product's US dates), 'Mar 2', 'March 2, 2026', '2 Mar 2026'. Without a year, the latest such
 * day on or before `today` (passed in: the domain reads no clock).
 */
export function parseDayQuery(text: string, today: CalendarDay): CalendarDay | null {
  const query = text.trim().replace(/\s+/g, ' ');
  if (!query) return null;

  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(query);
  if (match) return dayOf(Number(match[1]), Number(match[2]), Number(match[3]));

  match = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?$/.exec(query);
  if (match) {
    const [month, day] = [Number(match[1]), Number(match[2])];
    return match[3] ? dayOf(fullYear(match[3]), month, day) : latestBy(month, day, today);
  }

  match = /^([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?$/i.exec(query);
  if (match) {
    const month = monthOf(match[1]!);
    if (month === null) return null;
    return match[3] ? dayOf(Number(match[3]), month, Number(match[2])) : latestBy(month, Number(match[2]), today);
  }

  match = /^(\d{1,2}) ([a-z]+\.?)(?:,? (\d{4}))?$/i.exec(query);
  if (match) {
    const month = monthOf(match[2]!);
    if (month === null) return null;
    return match[3] ? dayOf(Number(match[3]), month, Number(match[1])) : latestBy(month, Number(match[1]), today);
  }
  return null;
}
