/**
 * Large broker exports made up for tests and the bench (the real samples in ../shared/fixtures/brokers are small).
 * Deterministic, so every run reads the same file.
 */

const ORDERS_HEADER =
  'orderId,Account,Order ID,B/S,Contract,Product,Product Description,avgPrice,filledQty,Fill Time,lastCommandId,Status,_priceFormat,_priceFormatType,_tickSize,spreadDefinitionId,Version ID,Timestamp,Date,Quantity,Text,Type,Limit Price,Stop Price,decimalLimit,decimalStop,Filled Qty,Avg Fill Price,decimalFillAvg,Venue,Notional Value,Currency';

const CONTRACTS = [
  { contract: 'MNQM6', product: 'MNQ', description: 'Micro E-mini NASDAQ-100', price: 21000, tick: 0.25, point: 2 },
  { contract: 'NQM6', product: 'NQ', description: 'E-mini NASDAQ-100', price: 21000, tick: 0.25, point: 20 },
  { contract: 'ESM6', product: 'ES', description: 'E-mini S&P 500', price: 5600, tick: 0.25, point: 50 },
  { contract: 'MESM6', product: 'MES', description: 'Micro E-mini S&P 500', price: 5600, tick: 0.25, point: 5 },
];

const PERFORMANCE_HEADER =
  'symbol,_priceFormat,_priceFormatType,_tickSize,buyFillId,sellFillId,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,duration';

/**
 * `count` filled orders as Tradovate exports them: round trips of 2 to 4 fills (scale-ins and partial exits, longs and
 * shorts) on four contracts, spread over trading days, 09:30 to 15:30 New York, with one cancelled bracket leg per ten
 * trades (which the importer must ignore). Deterministic, so every run parses the same file.
 */
export function tradovateOrdersCsv(count: number): string {
  return tradovateExports(count).orders;
}

/**
 * The same fills twice, as the Orders export and as the Performance export of the same account (FIFO pairs of buy
 * and sell fills, with the fills' ids and the pair's P&L): the two exports of the same fills.
 */
export function tradovateExports(count: number): { orders: string; performance: string } {
  let seed = 42;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const lines = [ORDERS_HEADER];
  const pairs = [PERFORMANCE_HEADER];
  type Leg = { id: number; side: 'Buy' | 'Sell'; qty: number; price: number; when: string };
  const money = (value: number) => (value < 0 ? `$(${(-value).toFixed(2)})` : `$${value.toFixed(2)}`);
  const pair = (c: (typeof CONTRACTS)[number], entry: Leg, exit: Leg, qty: number) => {
    const [buy, sell] = entry.side === 'Buy' ? [entry, exit] : [exit, entry];
    pairs.push(
      [
        c.contract,
        -2,
        0,
        c.tick,
        buy.id,
        sell.id,
        qty,
        buy.price.toFixed(2),
        sell.price.toFixed(2),
        money((sell.price - buy.price) * qty * c.point),
        buy.when,
        sell.when,
        '1min',
      ].join(','),
    );
  };
  let fills = 0;
  let orderId = 600_000_000_000;
  let minute = 0;
  let trade = 0;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = (m: number, s: number) => {
    // 360 minutes of session per day (09:30-15:30), weekdays only, from Monday 2026-01-05.
    const day = Math.floor(m / 360);
    const week = Math.floor(day / 5);
    const date = new Date(Date.UTC(2026, 0, 5 + week * 7 + (day % 5)));
    const clock = 9 * 60 + 30 + (m % 360);
    return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()} ${pad(Math.floor(clock / 60))}:${pad(clock % 60)}:${pad(s)}`;
  };
  const row = (c: (typeof CONTRACTS)[number], side: 'Buy' | 'Sell', qty: number, price: number, when: string, status = 'Filled'): Leg => {
    orderId += 1 + Math.floor(random() * 5);
    const filled = status === 'Filled';
    const p = price.toFixed(2);
    const notional = filled ? `"${(price * qty * c.point).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}"` : '';
    lines.push(
      [
        orderId,
        'ACCT0000000000000',
        orderId,
        ` ${side}`,
        c.contract,
        c.product,
        c.description,
        filled ? p : '',
        filled ? qty : '',
        filled ? when : '',
        orderId,
        ` ${status}`,
        -2,
        0,
        c.tick,
        '',
        orderId,
        when,
        when.slice(0, 10),
        qty,
        'Chart',
        filled ? ' Market' : ' Limit',
        filled ? '' : p,
        '',
        filled ? '' : p,
        '',
        filled ? qty : '',
        filled ? p : '',
        filled ? p : '',
        '',
        notional,
        'USD',
      ].join(','),
    );
    return { id: orderId, side, qty, price, when };
  };
  while (fills < count) {
    const c = CONTRACTS[trade % CONTRACTS.length]!;
    const long = random() < 0.55;
    const open = long ? 'Buy' : 'Sell';
    const close = long ? 'Sell' : 'Buy';
    const base = c.price + Math.round((random() - 0.5) * 400) * c.tick;
    const move = () => base + Math.round((random() - 0.45) * 80) * c.tick;
    const shape = Math.min(count - fills, random() < 0.5 ? 2 : random() < 0.5 ? 3 : 4);
    const m = minute;
    if (shape <= 2) {
      const q = 1 + Math.floor(random() * 3);
      const entry = row(c, open, q, base, stamp(m, 5));
      if (shape === 2) pair(c, entry, row(c, close, q, move(), stamp(m, 40)), q);
    } else if (shape === 3) {
      // Scale in, one exit.
      const first = row(c, open, 1, base, stamp(m, 5));
      const second = row(c, open, 2, base + c.tick * 2, stamp(m, 20));
      const exit = row(c, close, 3, move(), stamp(m, 50));
      pair(c, first, exit, 1);
      pair(c, second, exit, 2);
    } else {
      // Scale in, partial exit, final exit: first in, first out.
      const first = row(c, open, 2, base, stamp(m, 3));
      const second = row(c, open, 2, base - c.tick * 4, stamp(m, 15));
      const partial = row(c, close, 3, move(), stamp(m, 35));
      const last = row(c, close, 1, move(), stamp(m, 55));
      pair(c, first, partial, 2);
      pair(c, second, partial, 1);
      pair(c, second, last, 1);
    }
    if (trade % 10 === 0) row(c, close, 1, base + 40 * c.tick, stamp(m, 56), 'Canceled');
    fills += shape;
    trade++;
    minute++;
  }
  return { orders: `${lines.join('\r\n')}\r\n`, performance: `${pairs.join('\r\n')}\r\n` };
}
