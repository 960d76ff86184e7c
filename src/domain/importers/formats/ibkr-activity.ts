import Papa from 'papaparse';
import { Decimal, decimalToCents } from '../../money';
import { parseInstrument, pointValueOf } from '../../instruments';
import { normalizeHeader, parseAmount, parseInstant } from '../parsing';
import type { Fill } from '../../fills/types';
import type { StatementImporter } from '../types';
import { emptyResult, ignore, rowError } from './common';

/**
 * Interactive Brokers activity statement, CSV (Reports > Statements > Activity > Download CSV): every line starts with
 * its section and line type, `Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,
 * T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code` then `Trades,Data,Order,Futures,USD,MESU6,
 * "2026-08-04, 07:01:59",1,7644,...`. Each asset class repeats its own Header line (the columns differ), so columns
 * are taken from the latest one. Quantity is signed (buys positive); Comm/Fee is negative. Order lines are fills;
 * SubTotal and Total lines are sums, skipped. Futures and stocks are read; options and forex are counted and left out.
 * Futures take IBKR's multiplier where the proceeds give it (|Proceeds| / (|Quantity| x Price)). Times carry no zone
 * (the statement's, New York by default). The account is the Account column, or the statement's AccountId.
 */
export const ibkrActivity: StatementImporter = {
  id: 'ibkr-activity',
  label: 'Interactive Brokers activity statement',
  columns: ['Trades: Asset Category', 'Symbol', 'Date/Time', 'Quantity', 'T. Price', 'Proceeds', 'Comm/Fee', 'Code'],
  detectText: (text) =>
    /^Statement,Header,Field Name,Field Value/m.test(text.slice(0, 4096)) || /^Trades,Header,DataDiscriminator,/m.test(text.slice(0, 65_536)),
  parseText(text, options) {
    const result = emptyResult();
    const records = Papa.parse<string[]>(text, { skipEmptyLines: false, delimiter: ',' }).data;
    let header: string[] | null = null;
    let statementAccount = '';
    let rowCount = 0;
    const fills: Fill[] = [];
    records.forEach((record, index) => {
      const row = index + 1;
      const [section, kind] = record;
      if ((section === 'Account Information' && record[2] === 'Account') || (section === 'Statement' && record[2] === 'AccountId')) {
        statementAccount ||= (record[3] ?? '').trim();
      }
      if (section !== 'Trades') return;
      if (kind === 'Header') {
        header = record.map(normalizeHeader);
        return;
      }
      if (kind !== 'Data' || header === null) return;
      const cells = new Map<string, string>();
      (header as string[]).forEach((name, column) => {
        if (name && !cells.has(name)) cells.set(name, (record[column] ?? '').trim());
      });
      const discriminator = cells.get('datadiscriminator') ?? 'Order';
      if (discriminator !== 'Order' && discriminator !== 'Trade') return; // ClosedLot and summary lines
      rowCount++;
      const category = cells.get('asset category') ?? '';
      if (!/^(futures|stocks)$/i.test(category)) {
        ignore(result, `${category.toLowerCase() || 'other'} rows`);
        return;
      }
      const symbol = cells.get('symbol') ?? '';
      const quantity = parseAmount(cells.get('quantity'));
      const price = parseAmount(cells.get('t. price') ?? cells.get('tradeprice'));
      const time = parseInstant(cells.get('date/time'), options);
      const missing = [
        !symbol && 'Symbol',
        (quantity === null || quantity.isZero()) && 'Quantity',
        (price === null || price.lte(0)) && 'T. Price',
        time === null && 'Date/Time',
      ].filter(Boolean);
      if (missing.length > 0) {
        rowError(result.issues, row, `Missing or unreadable ${missing.join(', ')}`);
        return;
      }
      const costText = cells.get('comm/fee') ?? cells.get('comm in usd') ?? cells.get('commission') ?? '';
      const cost = costText === '' ? new Decimal(0) : parseAmount(costText);
      if (cost === null) {
        rowError(result.issues, row, `Unreadable Comm/Fee '${costText}'`);
        return;
      }
      const instrument = parseInstrument(symbol);
      const fill: Fill = {
        rows: [row],
        account: cells.get('account') || statementAccount,
        contract: instrument.contract,
        root: instrument.root,
        side: quantity!.gt(0) ? 'Buy' : 'Sell',
        quantity: quantity!.abs(),
        price: price!,
        time: time!,
        commission: Math.abs(decimalToCents(cost)),
      };
      if (/^futures$/i.test(category)) {
        const proceeds = parseAmount(cells.get('proceeds') ?? cells.get('notional value'));
        const known = pointValueOf({ root: instrument.root, isFuturesContract: true });
        if (proceeds !== null && !proceeds.isZero()) {
          const multiplier = proceeds.abs().dividedBy(quantity!.abs().times(price!)).toSignificantDigits(6);
          if (known.unknownFutures) fill.pointValue = multiplier;
          else if (!multiplier.eq(known.value)) {
            result.issues.push({
              row,
              severity: 'warning',
              message: `${symbol}: IBKR's multiplier ${multiplier.toString()} differs from ${known.value.toString()}; using IBKR's`,
            });
            fill.pointValue = multiplier;
          }
        }
      }
      fills.push(fill);
    });
    // The fills keep their place in the statement as the order of fills of the same second.
    fills.forEach((fill, i) => (fill.seq = i));
    result.fills = fills;
    return { ...result, rowCount };
  },
};
