import { wallClockOf } from '../dates/clock';
import type { MarketKind } from '../instruments';
import { MARKET_TIME_ZONE } from './market-zone';

/**
 * When a market is closed. Futures follow CME Globex: closed Friday 17:00 to Sunday 18:00 and in the daily halt
 * 17:00-18:00, New York time. Spot crypto never closes. Anything else is read as a US stock, open 04:00-20:00 New York
 * time on weekdays (pre-market, regular and after-hours sessions). Exchange holidays are not known here: a stretch
 * without prices on a holiday is reported missing rather than assumed closed, so nothing is computed over a gap we
 * cannot vouch for.
 */

/** CME Globex closed: Friday 17:00 to Sunday 18:00 and 17:00-18:00 every day, New York time. */
export function isExchangeClosed(instant: number): boolean {
  const local = wallClockOf(instant, MARKET_TIME_ZONE);
  if (local.hour === 17) return true;
  if (local.weekday === 6) return true;
  if (local.weekday === 5 && local.hour >= 17) return true;
  return local.weekday === 0 && local.hour < 18;
}

export function isMarketClosed(instant: number, kind: MarketKind): boolean {
  if (kind === 'futures') return isExchangeClosed(instant);
  if (kind === 'crypto') return false;
  const local = wallClockOf(instant, MARKET_TIME_ZONE);
  if (local.weekday === 0 || local.weekday === 6) return true;
  return local.hour < 4 || local.hour >= 20;
}

const MINUTE = 60_000;

/**
 * Milliseconds of [from, to) while the market is open, counted up to `limit`: the answer is exact below it and
 * `limit` or more above it, which is all a caller deciding "longer than the tolerance" needs. Every closure above
 * starts and ends on a whole minute (New York's offset is whole hours), so the stretch is walked a minute at a time;
 * a weekend is under 3,000 steps, and an open market passes the limit within a few.
 */
export function openMillisBetween(from: number, to: number, kind: MarketKind, limit = Number.POSITIVE_INFINITY): number {
  if (to <= from) return 0;
  if (kind === 'crypto') return to - from;
  let open = 0;
  let t = from;
  while (t < to && open <= limit) {
    const next = Math.min(to, (Math.floor(t / MINUTE) + 1) * MINUTE);
    if (!isMarketClosed(t, kind)) open += next - t;
    t = next;
  }
  return open;
}
