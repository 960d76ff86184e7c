import { Decimal, decimalToCents, type Cents } from '../money';

/**
 * A trade replayed bar by bar: where the position stood after the fills up to a moment, what it had made (realised)
 * and what it showed at a price (unrealised), and how far that price was from the planned stop. Pure: the fills, the
 * moment, the price and the contract's point value come in. Fills are counted in time order; a reduction realises
 * against the average price of the position (as brokers' statements show a scale-in's open P&L), a reversal closes
 * the position and opens the rest the other way.
 */

export interface ReplayFill {
  /** Epoch ms. */
  time: number;
  side: 'Buy' | 'Sell';
  quantity: Decimal;
  price: Decimal;
}

export interface ReplayPoint {
  /** Contracts held: positive long, negative short, 0 flat. */
  position: Decimal;
  /** The open position's average price; null when flat. */
  averagePrice: Decimal | null;
  realizedCents: Cents;
  unrealizedCents: Cents;
  totalCents: Cents;
  /** Fills counted so far. */
  fills: number;
  /** How far the price is from the stop, for the position held: points (positive while the stop is not reached) and dollars. */
  toStop: { points: string; cents: Cents } | null;
}

export function replayAt(fills: readonly ReplayFill[], until: number, price: Decimal, pointValue: Decimal, stop: Decimal | null = null): ReplayPoint {
  let position = new Decimal(0);
  let average = new Decimal(0);
  let realized = new Decimal(0);
  let counted = 0;
  for (const fill of [...fills].sort((a, b) => a.time - b.time)) {
    if (fill.time >= until) break;
    counted++;
    const signed = fill.side === 'Buy' ? fill.quantity : fill.quantity.negated();
    if (position.isZero() || position.isPositive() === signed.isPositive()) {
      const total = position.plus(signed);
      average = average.times(position.abs()).plus(fill.price.times(fill.quantity)).dividedBy(total.abs());
      position = total;
      continue;
    }
    // A reduction, a close or a reversal: the part that closes realises against the average price.
    const closing = Decimal.min(position.abs(), fill.quantity);
    const direction = position.isPositive() ? 1 : -1;
    realized = realized.plus(fill.price.minus(average).times(closing).times(direction));
    const rest = fill.quantity.minus(closing);
    position = position.plus(signed.isPositive() ? closing : closing.negated());
    if (rest.gt(0)) {
      position = signed.isPositive() ? rest : rest.negated();
      average = fill.price;
    } else if (position.isZero()) {
      average = new Decimal(0);
    }
  }
  const open = !position.isZero();
  const unrealized = open ? price.minus(average).times(position) : new Decimal(0);
  const realizedCents = decimalToCents(realized.times(pointValue));
  const unrealizedCents = decimalToCents(unrealized.times(pointValue));
  let toStop: ReplayPoint['toStop'] = null;
  if (open && stop !== null) {
    const points = position.isPositive() ? price.minus(stop) : stop.minus(price);
    toStop = { points: points.toFixed(), cents: decimalToCents(points.times(position.abs()).times(pointValue)) };
  }
  return {
    position,
    averagePrice: open ? average : null,
    realizedCents,
    unrealizedCents,
    totalCents: realizedCents + unrealizedCents,
    fills: counted,
    toStop,
  };
}
