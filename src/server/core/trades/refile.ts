import { and, eq, isNotNull, notInArray, sql } from 'drizzle-orm';
import { dayOfImportedTrade } from '../../../domain/importers';
import type { TradingDayRule } from '../../../domain/market-time';
import type { TradeWriter } from './write';
import { trades } from '../../db/schema';

/** Formats whose file names the day itself (a daily P&L sheet, the Trade Log's own backup): their day never moves. */
export const DAY_FROM_FILE_SOURCES = ['json-backup', 'generic-pnl'];

/**
 * Re-files the trader's imported trades when the trading-day setting changes from `from` to `to`,
 * inside the caller's transaction, so the setting and every day change together or not at all. A trade moves only if
 * its stored day is still the one its entry time gives under the old rule: a day the trader set by hand stays, as do
 * manual trades and trades whose file named the day. Returns how many trades moved.
 */
export async function refileImportedTrades(writer: TradeWriter, from: TradingDayRule, to: TradingDayRule): Promise<number> {
  if (from === to) return 0;
  const { tx, userId } = writer;
  const rows = await tx
    .select({ id: trades.id, entryTime: trades.entryTime, tradeDate: trades.tradeDate, symbol: trades.symbol, contract: trades.contract })
    .from(trades)
    .where(
      and(
        eq(trades.userId, userId),
        isNotNull(trades.importSource),
        notInArray(trades.importSource, DAY_FROM_FILE_SOURCES),
        isNotNull(trades.entryTime),
      ),
    );
  const moves: Array<{ id: string; stored: string; trade_date: string; day_of_week: string }> = [];
  for (const row of rows) {
    const entry = Date.parse(row.entryTime!);
    const instrument = row.contract || row.symbol;
    const stored = Date.parse(row.tradeDate);
    if (Date.parse(dayOfImportedTrade(entry, instrument, { tradingDay: from }).tradeDate) !== stored) continue;
    const next = dayOfImportedTrade(entry, instrument, { tradingDay: to });
    if (Date.parse(next.tradeDate) !== stored)
      moves.push({ id: row.id, stored: row.tradeDate, trade_date: next.tradeDate, day_of_week: next.dayOfWeek });
  }
  // Only a trade whose day is still the one read above moves: a day set by hand at the same moment (the rows are
  // read unlocked; the update waits for that change and then sees it) stays, as any day set by hand does.
  let moved = 0;
  for (let i = 0; i < moves.length; i += writer.batch.trades) {
    if (i > 0) await writer.pause();
    const changed = await writer.updateEach(
      moves.slice(i, i + writer.batch.trades),
      'id uuid, stored timestamptz, trade_date timestamptz, day_of_week text',
      sql`trade_date = r.trade_date, day_of_week = r.day_of_week`,
      sql`t.trade_date = r.stored`,
    );
    moved += changed.length;
  }
  return moved;
}
