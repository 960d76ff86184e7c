import type { Cents } from '../money';
import { addDays, getDaysInMonth, getWeekdayIndex, parseCalendarDay, formatCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { getTodayInZone } from '../dates/clock';
import { normalizeTradeInput, type NormalizedTrade } from '../trades/normalize-trade';
import type { NewTask } from './task-rules';

/** Five onboarding tasks dated today for a new user (no trades). */
export function buildOnboardingTasks(today: CalendarDay): NewTask[] {
  const task = (title: string, category: NewTask['category']): NewTask => ({
    title,
    category,
    completed: false,
    recurring: false,
    taskDate: today,
  });
  return [
    task('Review the sample trades in the Trade Log, then delete them', 'Other'),
    task('Log your first real trade', 'Daily'),
    task('Write your pre-market plan: key levels and bias', 'Market Analysis'),
    task('Set your max daily loss before the open', 'Risk Management'),
    task('Note how you felt after the session', 'Psychology'),
  ];
}

interface SampleTemplate {
  symbol: 'NQ' | 'ES' | 'BTC';
  side: 'Long' | 'Short';
  /** One of the spec's trade types (the defaults): the side is its own field. */
  setup: string;
  session: string;
  /** Before commission; futures amounts are whole ticks (NQ $5, ES $12.50). */
  grossCents: Cents;
  commissionCents: Cents;
  notes: string;
  tags: string[];
}

/**
 * 7 sample trades on NQ, ES and BTC. 4 wins, 2 losses, 1 break-even. Net = gross - commission, so
 * each result matches its stored pnl: NQ +21.25 pts x $20, ES -3.75 pts x $50, a BTC scratch whose small gain pays
 * exactly its fee.
 */
const SAMPLE_TEMPLATES: readonly SampleTemplate[] = [
  {
    symbol: 'NQ',
    side: 'Long',
    setup: 'Reversal',
    session: 'AM',
    grossCents: 42500,
    commissionCents: 428,
    notes: 'Sample trade: long from the opening range low after a liquidity sweep.',
    tags: ['Sample', 'NQ'],
  },
  {
    symbol: 'ES',
    side: 'Short',
    setup: 'Support/Resistance',
    session: 'AM',
    grossCents: -18750,
    commissionCents: 428,
    notes: 'Sample trade: shorted into support, stopped out. Wait for confirmation.',
    tags: ['Sample', 'ES'],
  },
  {
    symbol: 'BTC',
    side: 'Long',
    setup: 'Breakout',
    session: 'PM',
    grossCents: 31240,
    commissionCents: 312,
    notes: 'Sample trade: breakout retest held.',
    tags: ['Sample', 'BTC'],
  },
  {
    symbol: 'BTC',
    side: 'Short',
    setup: 'Momentum',
    session: 'Lunch',
    grossCents: 250,
    commissionCents: 250,
    notes: 'Sample trade: no follow-through at lunch; stop moved to entry, the small gain paid the fee.',
    tags: ['Sample', 'BTC'],
  },
  {
    symbol: 'NQ',
    side: 'Long',
    setup: 'Trend Continuation',
    session: 'AM',
    grossCents: 61000,
    commissionCents: 428,
    notes: 'Sample trade: trend continuation after the 10:00 pullback.',
    tags: ['Sample', 'NQ'],
  },
  {
    symbol: 'ES',
    side: 'Long',
    setup: 'Pullback',
    session: 'PM',
    grossCents: -11250,
    commissionCents: 428,
    notes: 'Sample trade: early entry before the level was tested.',
    tags: ['Sample', 'ES'],
  },
  {
    symbol: 'NQ',
    side: 'Long',
    setup: 'A/A+',
    session: 'AM',
    grossCents: 28000,
    commissionCents: 428,
    notes: 'Sample trade: A+ setup, took partials at the prior high.',
    tags: ['Sample', 'NQ'],
  },
];

/**
 * The days of the current month, up to and including today, that sample trades fall on: spread evenly over the
 * weekdays so far (several trades share a day early in the month); on a month whose first days are all weekend,
 * those days are used.
 */
function pickSampleDays(today: CalendarDay, count: number): CalendarDay[] {
  const { year, month, day } = parseCalendarDay(today) ?? { year: 1970, month: 1, day: 1 };
  const first = formatCalendarDay(year, month, 1);
  const allDays = Array.from({ length: Math.min(day, getDaysInMonth(year, month)) }, (_, i) => addDays(first, i));
  const weekdays = allDays.filter((d) => {
    const index = getWeekdayIndex(d);
    return index !== 0 && index !== 6;
  });
  const candidates = weekdays.length > 0 ? weekdays : allDays;
  return Array.from({ length: count }, (_, i) => candidates[Math.floor((i * candidates.length) / count)] as CalendarDay);
}

/**
 * Sample trades for a new user's current month, dated from the 1st up to today in the user's zone.
 * Deterministic for a given `now` and `timeZone`; oldest first. Stored shape, pnl net of commission.
 */
export function buildSampleTrades(now: Date, timeZone: string): NormalizedTrade[] {
  const today = getTodayInZone(now, timeZone);
  const days = pickSampleDays(today, SAMPLE_TEMPLATES.length);
  return SAMPLE_TEMPLATES.map((template, i) => {
    const result = normalizeTradeInput(
      {
        symbol: template.symbol,
        trade_date: days[i],
        period: template.session,
        side: template.side,
        trade_type: template.setup,
        pnl: template.grossCents / 100,
        commission: template.commissionCents / 100,
        notes: template.notes,
        tags: template.tags,
      },
      { pnlBasis: 'beforeCommission', timeZone },
    );
    if (!result.ok) throw new Error('sample trade template is invalid');
    return result.trade;
  });
}
