import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { headerKey, parseImport, readHeaderRow, type ColumnMapping } from './index';
import { expectPreview, viewTrade } from './testing';

const own = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Any other CSV is read with the trader's own column mapping. */
const FILLS: ColumnMapping = {
  kind: 'fills',
  time: 'Trade Time',
  symbol: 'Ticker',
  side: 'Action',
  quantity: 'Shares',
  price: 'Fill Price',
  commission: 'Fees',
  account: 'Acct',
};

describe('a column mapping for a broker we do not know', () => {
  it('fills (fixtures/unknown-broker-fills.csv): matched into round trips with their costs and account', () => {
    const preview = expectPreview(parseImport(own('unknown-broker-fills.csv'), { timeZone: 'America/New_York', mapping: FILLS }));
    expect(preview.format).toEqual({ id: 'mapped', label: 'Your column mapping' });
    expect(preview.mapping).toEqual(FILLS);
    expect(preview.trades.map(viewTrade)).toEqual([
      // 6.5 points x 2 x $5; 1.24 on each fill
      {
        contract: 'MESU5',
        symbol: 'MES',
        side: 'Long',
        entryTime: '2025-08-04T13:31:15.000Z',
        exitTime: '2025-08-04T13:40:02.000Z',
        quantity: '2',
        entryPrice: '6350.25',
        exitPrice: '6356.75',
        grossPnl: 6500,
        commission: 248,
        netPnl: 6252,
      },
      {
        contract: 'MNQU5',
        symbol: 'MNQ',
        side: 'Short',
        entryTime: '2025-08-04T14:05:30.000Z',
        exitTime: '2025-08-04T14:12:45.000Z',
        quantity: '1',
        entryPrice: '23410',
        exitPrice: '23398.5',
        grossPnl: 2300,
        commission: 124,
        netPnl: 2176,
      },
    ]);
    expect(preview.trades.every((t) => t.account === 'Eval-7')).toBe(true);
    expect(preview.costsInFile).toBe(true);
    expect(preview.issues).toEqual([]);
  });

  it('fills without a side column: the sign of the quantity is the side, and no cost column means none in the file', () => {
    const csv = 'When,Contract,Qty,Price\n2025-08-04 09:31:15,MESU5,2,6350.25\n2025-08-04 09:40:02,MESU5,-2,6356.75\n';
    const preview = expectPreview(
      parseImport(csv, {
        timeZone: 'America/New_York',
        mapping: { kind: 'fills', time: 'When', symbol: 'Contract', quantity: 'Qty', price: 'Price' },
      }),
    );
    expect(viewTrade(preview.trades[0]!)).toMatchObject({ side: 'Long', quantity: '2', grossPnl: 6500, commission: 0 });
    expect(preview.costsInFile).toBe(false);
  });

  it('one P&L per row (fixtures/unknown-broker-pnl.csv): summed per day and symbol, costs apart', () => {
    const mapping: ColumnMapping = { kind: 'pnl', time: 'Closed', symbol: 'Market', pnl: 'Net Result', commission: 'Costs' };
    const preview = expectPreview(parseImport(own('unknown-broker-pnl.csv'), { timeZone: 'America/New_York', mapping }));
    expect(preview.trades.map((t) => [t.tradingDay, t.symbol, t.grossPnl, t.commission, t.netPnl, t.session])).toEqual([
      ['2025-08-05', 'ES', 27500, 856, 26644, 'PM'],
      ['2025-08-06', 'NQ', 26000, 428, 25572, 'AM'],
    ]);
  });

  it('a mapping naming a column the file does not have, or missing a required one, is refused with what to fix', () => {
    const text = own('unknown-broker-fills.csv');
    expect(parseImport(text, { mapping: { ...FILLS, price: 'Price' } })).toMatchObject({
      ok: false,
      code: 'invalid-mapping',
      message: "The file has no column 'Price' (for price)",
    });
    const { price: _price, ...noPrice } = FILLS;
    expect(parseImport(text, { mapping: noPrice as ColumnMapping })).toMatchObject({
      ok: false,
      code: 'invalid-mapping',
      message: 'Choose the column for price',
    });
    expect(parseImport(text, { mapping: { kind: 'pnl', time: 'Trade Time' } })).toMatchObject({
      ok: false,
      code: 'invalid-mapping',
      message: 'Choose the column for pnl',
    });
  });

  it('a remembered mapping is used only for a file no format recognises', () => {
    const fallback = expectPreview(parseImport(own('unknown-broker-fills.csv'), { timeZone: 'America/New_York', fallbackMapping: FILLS }));
    expect([fallback.format.id, fallback.trades.length]).toEqual(['mapped', 2]);
    const tradovate = own('tradovate-performance-scenarios.csv');
    expect(expectPreview(parseImport(tradovate, { fallbackMapping: FILLS })).format.id).toBe('tradovate-performance');
  });

  it('the header row is remembered regardless of case, spaces and the BOM', () => {
    const headers = readHeaderRow(own('unknown-broker-fills.csv'));
    expect(headers).toEqual(['Trade Time', 'Ticker', 'Action', 'Shares', 'Fill Price', 'Fees', 'Acct']);
    expect(headerKey(readHeaderRow('\uFEFF\n trade time , TICKER,action,shares,fill price,fees,acct\n1,2'))).toBe(headerKey(headers));
    expect(headerKey(['Ticker', 'Trade Time'])).not.toBe(headerKey(['Trade Time', 'Ticker']));
  });
});
