import {
  addDays,
  addMonths,
  formatCalendarDay,
  getDaysInMonth,
  getStartOfWeekMonday,
  parseCalendarDay,
  type CalendarDay,
} from '../dates/calendar-day';

/**
 * The time range a chat question names (last week or 7 days, this week, last month,
 * this month, yesterday, today, last 30 days). `today` is the trader's date in their zone. The first match in this
 * order wins, so "last 30 days" is not read as "last month", nor "last week" as "this week".
 */
export interface ChatTimeRange {
  key: 'today' | 'yesterday' | 'this-week' | 'last-7-days' | 'this-month' | 'last-month' | 'last-30-days';
  label: string;
  from: CalendarDay;
  to: CalendarDay;
}

const RULES: Array<{ key: ChatTimeRange['key']; pattern: RegExp }> = [
  { key: 'last-30-days', pattern: /\b(last|past)\s+30\s+days\b|\b30\s+days\b/ },
  { key: 'last-7-days', pattern: /\b(last|past|previous)\s+week\b|\b(last|past)\s+(7|seven)\s+days\b|\b(7|seven)\s+days\b/ },
  { key: 'last-month', pattern: /\b(last|past|previous)\s+month\b/ },
  { key: 'this-month', pattern: /\bthis\s+month\b|\bmonth\s+to\s+date\b|\bmtd\b/ },
  { key: 'this-week', pattern: /\bthis\s+week\b|\bweek\s+to\s+date\b|\bwtd\b/ },
  { key: 'yesterday', pattern: /\byesterday\b/ },
  { key: 'today', pattern: /\btoday\b|\bthis\s+session\b/ },
];

export function detectChatTimeRange(text: string, today: CalendarDay): ChatTimeRange | null {
  const lower = text.toLowerCase();
  const rule = RULES.find((r) => r.pattern.test(lower));
  return rule ? chatTimeRange(rule.key, today) : null;
}

export function chatTimeRange(key: ChatTimeRange['key'], today: CalendarDay): ChatTimeRange {
  switch (key) {
    case 'today':
      return { key, label: 'today', from: today, to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { key, label: 'yesterday', from: day, to: day };
    }
    case 'this-week':
      return { key, label: 'this week', from: getStartOfWeekMonday(today), to: today };
    case 'last-7-days':
      return { key, label: 'the last 7 days', from: addDays(today, -6), to: today };
    case 'this-month': {
      const { year, month } = parseCalendarDay(today)!;
      return { key, label: 'this month', from: formatCalendarDay(year, month, 1), to: today };
    }
    case 'last-month': {
      const { year, month } = parseCalendarDay(addMonths(today, -1))!;
      return { key, label: 'last month', from: formatCalendarDay(year, month, 1), to: formatCalendarDay(year, month, getDaysInMonth(year, month)) };
    }
    case 'last-30-days':
      return { key, label: 'the last 30 days', from: addDays(today, -29), to: today };
  }
}
