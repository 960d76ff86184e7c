import { Decimal } from '../money';
import { parseInstrument, pointValueOf, TICK_SIZES } from '../importers/instruments';
import { marketKindOf, type MarketKind } from './exchange-hours';

/** What the excursions need of a contract: dollars per point, its tick (when known) and whose hours it keeps. */
export function instrumentFigures(key: string): { pointValue: Decimal; tickSize: Decimal | null; market: MarketKind } {
  const instrument = parseInstrument(key);
  const market = marketKindOf(key);
  // Spot crypto has no exchange-wide tick (TICK_SIZES' BTC is CME's futures).
  const tick = market === 'crypto' ? undefined : TICK_SIZES[instrument.root];
  return { pointValue: pointValueOf(instrument).value, tickSize: tick === undefined ? null : new Decimal(tick), market };
}
