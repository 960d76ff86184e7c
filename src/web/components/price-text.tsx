import { formatPrice } from '../../domain/trades';

/**
 * A price at its instrument's tick precision, the stored value on hover (an imported average price read
 * '25235.78571429'). Nothing for a trade without the price.
 */
export function PriceText({ price, symbol }: { price: string | null | undefined; symbol: string }) {
  if (price === null || price === undefined || price === '') return null;
  const { text, exact } = formatPrice(price, symbol);
  return (
    <span title={exact} data-exact={exact} data-testid="price">
      {text}
    </span>
  );
}
