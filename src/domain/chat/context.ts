import { formatUsd, type Cents } from '../money';
import type { DailyAggregate, TradeAggregate } from '../stats/trade-aggregate';
import { calculateWinRate } from '../stats/win-rate';
import { tableCell as cell, fenceTraderData } from '../text';

/**
 * The trade context a chat question gets when it is about trading ("The
 * trade table sent has columns date, symbol, type, result, PnL and notes, followed by date range, totals,
 * win/loss/BE counts, win percentage, total PnL and monthly counts"). At most 50 trades are
 * listed; the totals cover every trade of the range, summed by Edgebook, so the model never adds
 * anything up itself.
 */
export const CHAT_CONTEXT_MAX_TRADES = 50;

export interface ChatContextTrade {
  tradeDate: string;
  symbol: string;
  /** Long or Short, apart from the setup; null when the trade does not say. */
  side: string | null;
  /** The setup (the spec's type). */
  tradeType: string;
  status: string;
  pnlCents: Cents;
  notes: string;
}

export interface MonthCount {
  /** yyyy-MM */
  month: string;
  trades: number;
}

/** Trades per calendar month, oldest first, from per-day sums. */
export function countTradesByMonth(days: Iterable<Pick<DailyAggregate, 'date' | 'trades'>>): MonthCount[] {
  const months = new Map<string, number>();
  for (const day of days) months.set(day.date.slice(0, 7), (months.get(day.date.slice(0, 7)) ?? 0) + day.trades);
  return [...months].sort(([a], [b]) => a.localeCompare(b)).map(([month, trades]) => ({ month, trades }));
}

/**
 * The context as the model reads it, inside the trader-data fence (text.ts): it goes with the trader's question in
 * the user turn, never in the system message, whose rule says what the fence means.
 */
export function buildChatContext(input: {
  /** 'this week', 'last month' ...; null when the question names no range (all trades). */
  rangeLabel: string | null;
  /** The trades listed, newest first (at most 50 are used). */
  trades: readonly ChatContextTrade[];
  /** Sums over every trade of the range. */
  totals: TradeAggregate;
  months: readonly MonthCount[];
  /** First and last trading day with a trade in the range. */
  firstDay: string | null;
  lastDay: string | null;
}): string {
  const { totals } = input;
  const listed = input.trades.slice(0, CHAT_CONTEXT_MAX_TRADES);
  const scope = input.rangeLabel ? `the trader's trades of ${input.rangeLabel}` : "the trader's most recent trades";
  if (totals.trades === 0) {
    return `TRADE DATA (from Edgebook): no trades ${input.rangeLabel ? `in ${input.rangeLabel}` : 'logged yet'}.`;
  }
  // Fenced: the symbols, setups and notes are the trader's own words, sent with their question, not as instructions.
  return fenceTraderData(
    [
      `TRADE DATA (from Edgebook, ${scope}; every total below was computed by Edgebook):`,
      // The spec's columns, with the side beside the type: the type is the setup, never the side.
      'date | symbol | side | type | result | PnL | notes',
      ...listed.map((t) =>
        [t.tradeDate, cell(t.symbol, 20), t.side ?? '', cell(t.tradeType, 30), t.status, formatUsd(t.pnlCents), cell(t.notes, 160)].join(' | '),
      ),
      ...(listed.length < totals.trades ? [`(the ${listed.length} most recent of ${totals.trades} trades are listed)`] : []),
      '',
      `Date range: ${input.firstDay ?? '-'} to ${input.lastDay ?? '-'}`,
      `Total trades: ${totals.trades}`,
      `Wins: ${totals.wins}, Losses: ${totals.losses}, Break-even: ${totals.breakEvens}`,
      `Win percentage: ${calculateWinRate(totals).toFixed(1)}% (break-evens excluded)`,
      `Total PnL: ${formatUsd(totals.pnlCents)}`,
      `Trades per month: ${input.months.map((m) => `${m.month}: ${m.trades}`).join(', ')}`,
    ].join('\n'),
  );
}
