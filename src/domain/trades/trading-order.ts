/**
 * The trading order: the one order of trades everywhere order matters (streaks, statistics, lists, the AI's tools).
 *
 *   (trading day, coalesce(entry, exit, created), coalesce(exit, entry, created), created, id)
 *
 * oldest first; lists show the same key newest first. A trade is placed by when it was traded: its day, then its entry
 * (its exit when the file gave only that), then its exit. A manual trade has no times and falls back to its creation,
 * so manual trades keep the order they were written in. Creation and id break the remaining ties: an import, a
 * restored backup and the sample trades are each written by one transaction and share one creation time. The
 * database keeps the second and third keys as generated columns (trades.ordering_entry_time, ordering_exit_time) so
 * that a page of the list is an index range scan.
 */
export interface TradingOrderFields {
  /** The trading day, 'yyyy-MM-dd' (or the stored 12:00 UTC timestamp, written the same way by every caller). */
  tradeDate: string;
  entryTime?: string | null;
  exitTime?: string | null;
  createdAt?: string | null;
  id?: string | null;
}

const INSTANT = /^(\d{4,6})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An ISO or PostgreSQL timestamp as microseconds since 1970 (exact: PostgreSQL keeps microseconds, which a JavaScript
 * Date drops, and a restored backup spaces trades of one creation time a microsecond apart). Null when unreadable.
 */
export function instantMicros(text: string): number | null {
  const m = INSTANT.exec(text.trim());
  if (!m) return null;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone = 'Z'] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * (zone[0] === '-' ? -1 : 1);
  }
  const ms = date.getTime() - offsetMinutes * 60_000;
  if (!Number.isFinite(ms)) return null;
  return ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

function compareInstants(a: string | null | undefined, b: string | null | undefined): number {
  if (!a || !b) return 0;
  const x = instantMicros(a);
  const y = instantMicros(b);
  if (x === null || y === null) return 0;
  return x - y;
}

/** The two time keys of a trade: its entry (else exit, else creation) and its exit (else entry, else creation). */
export function tradingOrderTimes(trade: TradingOrderFields): [string | null, string | null] {
  const created = trade.createdAt ?? null;
  return [trade.entryTime ?? trade.exitTime ?? created, trade.exitTime ?? trade.entryTime ?? created];
}

/**
 * Oldest first by the trading order; negative when `a` comes first. A key either side lacks (a caller that did not
 * pass creation times or ids) compares equal, so a stable sort keeps the input order there.
 */
export function compareTradingOrder(a: TradingOrderFields, b: TradingOrderFields): number {
  const dayA = a.tradeDate.slice(0, 10);
  const dayB = b.tradeDate.slice(0, 10);
  if (dayA !== dayB) return dayA < dayB ? -1 : 1;
  const [entryA, exitA] = tradingOrderTimes(a);
  const [entryB, exitB] = tradingOrderTimes(b);
  const byTime = compareInstants(entryA, entryB) || compareInstants(exitA, exitB) || compareInstants(a.createdAt, b.createdAt);
  if (byTime !== 0) return byTime;
  // PostgreSQL orders uuids by their bytes, which is the order of their lower-case hex text.
  const idA = a.id?.toLowerCase();
  const idB = b.id?.toLowerCase();
  if (!idA || !idB || idA === idB) return 0;
  return idA < idB ? -1 : 1;
}

/** The trades oldest first in the trading order (a stable sort: see compareTradingOrder). */
export function sortByTradingOrder<T extends TradingOrderFields>(trades: Iterable<T>): T[] {
  return [...trades].sort(compareTradingOrder);
}
