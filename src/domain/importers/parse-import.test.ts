import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_AN_ARRAY_MESSAGE, parseImport, type ColumnMapping } from './index';
import { parseAmount, parseInstant } from './parsing';
import { expectPreview, viewTrade } from './testing';

const real = (path: string) => readFileSync(new URL(`../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');
const own = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('reading values as brokers print them', () => {
  it.each([
    ['$(12.50)', '-12.5'],
    ['"$1,200.00"'.replace(/"/g, ''), '1200'],
    ['$48.10 ', '48.1'],
    ['($75.90)', '-75.9'],
    ['-$5', '-5'],
    ['$-5', '-5'],
    ['5 USD', '5'],
    ['-12.50', '-12.5'],
    ['202.500000000', '202.5'],
    ['abc', null],
    ['', null],
  ])('%s -> %s', (text, expected) => {
    expect(parseAmount(text)?.toString() ?? null).toBe(expected);
  });

  it('naive times across daylight-saving changes in New York', () => {
    const ny = 'America/New_York';
    expect(new Date(parseInstant('03/07/2025 18:30:00', ny)!).toISOString()).toBe('2025-03-07T23:30:00.000Z');
    expect(new Date(parseInstant('03/09/2025 18:30:00', ny)!).toISOString()).toBe('2025-03-09T22:30:00.000Z');
    // 02:30 does not exist on 9 March 2025: it is read as 03:30 EDT.
    expect(new Date(parseInstant('2025-03-09 02:30:00', ny)!).toISOString()).toBe('2025-03-09T07:30:00.000Z');
    // 01:30 happens twice on 2 November 2025: the first (EDT) is taken.
    expect(new Date(parseInstant('11/02/2025 01:30:00', ny)!).toISOString()).toBe('2025-11-02T05:30:00.000Z');
    expect(new Date(parseInstant('11/02/2025 02:30:00', ny)!).toISOString()).toBe('2025-11-02T07:30:00.000Z');
    // An explicit offset wins over the zone.
    expect(new Date(parseInstant('07/02/2026 10:10:08 -04:00', 'Asia/Tokyo')!).toISOString()).toBe('2026-07-02T14:10:08.000Z');
    expect(parseInstant('02/30/2025 10:00', ny)).toBeNull();
    expect(parseInstant('13/01/2025 10:00', ny)).toBeNull();
  });
});

describe('parseImport: files that cannot be imported say why', () => {
  it.each([
    ['', 'empty-file'],
    ['\uFEFF  \r\n ', 'empty-file'],
    ['PK\u0003\u0004\u0014\u0000\u0006\u0000', 'binary-file'],
    ['symbol,qty\u0000\u0001\u0002', 'binary-file'],
    ['symbol,buyPrice,sellPrice,boughtTimestamp,soldTimestamp\r\n', 'no-data-rows'],
    ['{ "trades": [] }', 'not-an-array'],
    ['[ { "pnl": 1 ', 'invalid-json'],
  ])('%j -> %s', (text, code) => {
    const result = parseImport(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.code).toBe(code);
  });

  it("a JSON object is refused with the spec's message", () => {
    expect(parseImport('{"a":1}')).toEqual({ ok: false, code: 'not-an-array', message: NOT_AN_ARRAY_MESSAGE });
    expect(NOT_AN_ARRAY_MESSAGE).toBe('Invalid file format: The file does not contain an array of trade data');
  });

  it('an unknown format names the columns it saw, so the dialog can offer to map them', () => {
    const result = parseImport(own('unknown-broker-fills.csv'));
    expect(result).toMatchObject({
      ok: false,
      code: 'unknown-format',
      headers: ['Trade Time', 'Ticker', 'Action', 'Shares', 'Fill Price', 'Fees', 'Acct'],
    });
    if (!result.ok) expect(result.message).toContain('Columns found: Trade Time, Ticker, Action, Shares, Fill Price, Fees, Acct');
  });

  it('an unknown time zone is refused rather than read as UTC', () => {
    expect(parseImport('a,b\n1,2', { timeZone: 'America/Nowhere' })).toMatchObject({ ok: false, code: 'invalid-time-zone' });
  });

  it('a file over the limit is refused before parsing', () => {
    expect(parseImport('x'.repeat(101), { maxChars: 100 })).toMatchObject({ ok: false, code: 'too-large' });
  });
});

describe('detection from the header row', () => {
  it('ignores a BOM, case, spaces and the delimiter', () => {
    const csv =
      '\uFEFF ID ; contractname ;EnteredAt;ExitedAt; EntryPrice;ExitPrice;Fees;PnL;Size;TYPE;TradeDay;TradeDuration\n1;MNQU6;07/02/2026 10:10:08 -04:00;07/02/2026 10:10:48 -04:00;30182.5;30148.75;2.22;202.5;3;Short;;\n';
    const preview = expectPreview(parseImport(csv));
    expect(preview.format.id).toBe('topstepx-trades');
    expect(preview.trades[0]!.grossPnl).toBe(20250);
  });

  it('the trader can override the detected format; a mismatch is a warning on row 1', () => {
    const preview = expectPreview(
      parseImport(real('tradovate-performance/freetradejournal__tradovate-trades-performance.csv'), { format: 'generic-pnl' }),
    );
    expect(preview.format.id).toBe('generic-pnl');
    expect(preview.detectedFormat?.id).toBe('tradovate-performance');
  });
});

describe('import keys: re-imports and overlapping exports create no duplicates', () => {
  it('the same file twice gives the same keys; an overlapping export shares the keys of the common trades', () => {
    const text = real('tradovate-performance/stephenkgli-trading-records__Performance.csv');
    const lines = text.split('\r\n');
    const first = expectPreview(parseImport(lines.slice(0, 120).join('\r\n'), { timeZone: 'Asia/Shanghai' }));
    const second = expectPreview(parseImport([lines[0], ...lines.slice(60)].join('\r\n'), { timeZone: 'Asia/Shanghai' }));
    const whole = expectPreview(parseImport(text, { timeZone: 'Asia/Shanghai' }));
    expect(expectPreview(parseImport(text, { timeZone: 'Asia/Shanghai' })).trades.map((t) => t.importKey)).toEqual(
      whole.trades.map((t) => t.importKey),
    );
    const union = new Set([...first.trades, ...second.trades].map((t) => t.importKey));
    // Every trade of the whole file is in one of the two exports, and no trade got two keys.
    expect(union).toEqual(new Set(whole.trades.map((t) => t.importKey)));
  });

  it('Performance.csv and Position History carry the same Tradovate fill ids, so a trade gets one key from either', () => {
    const performance =
      'symbol,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,buyFillId,sellFillId\nMNQM6,5,25073.25,25072.00,$(12.50),04/09/2026 17:14:44,04/09/2026 17:14:44,465747740203,465747740221\n';
    const history = real('tradovate-position-history/tradetally__tradovate-paired-trades-sample.csv');
    const a = expectPreview(parseImport(performance)).trades[0]!;
    const b = expectPreview(parseImport(history)).trades.find((t) => t.entryTime === a.entryTime)!;
    expect(b.importKey).toBe(a.importKey);
  });

  it('two identical trades in one file without ids stay two, and keep their keys on a re-import', () => {
    const round = '2025-02-03 09:45:00,MNQH5,Buy,1,21500.00\n2025-02-03 09:45:00,MNQH5,Sell,1,21502.00\n';
    const csv = `filltime,symbol,side,qty,price\n${round}${round}`;
    const preview = expectPreview(parseImport(csv));
    expect(preview.trades.map((t) => [t.entryTime, t.grossPnl])).toEqual([
      ['2025-02-03T14:45:00.000Z', 400],
      ['2025-02-03T14:45:00.000Z', 400],
    ]);
    const keys = preview.trades.map((t) => t.importKey);
    expect(new Set(keys).size).toBe(2);
    expect(expectPreview(parseImport(csv)).trades.map((t) => t.importKey)).toEqual(keys);
  });
});

describe('fill, order and P&L formats without a real sample', () => {
  it('TradeSyncer-like fills: reversal with commissions, cancelled fill ignored, bad rows reported by number', () => {
    const preview = expectPreview(parseImport(own('fills-with-commission.csv'), { timeZone: 'America/New_York' }));
    expect(preview.format.id).toBe('tradesyncer-fills');
    expect(preview.trades.map(viewTrade)).toEqual([
      // +10 points x $20; commission 2.10 + one third of 6.30
      {
        contract: 'NQH5',
        symbol: 'NQ',
        side: 'Long',
        entryTime: '2025-02-03T14:45:00.000Z',
        exitTime: '2025-02-03T14:50:00.000Z',
        quantity: '1',
        entryPrice: '21500',
        exitPrice: '21510',
        grossPnl: 20000,
        commission: 420,
        netPnl: 19580,
      },
      // short 2 from the same sell, covered 20 points lower: 800.00; commission 4.20 + 4.20
      {
        contract: 'NQH5',
        symbol: 'NQ',
        side: 'Short',
        entryTime: '2025-02-03T14:50:00.000Z',
        exitTime: '2025-02-03T15:05:00.000Z',
        quantity: '2',
        entryPrice: '21510',
        exitPrice: '21490',
        grossPnl: 80000,
        commission: 840,
        netPnl: 79160,
      },
    ]);
    expect(preview.openPositions.map((p) => [p.account, p.side, p.quantity.toString()])).toEqual([['ACC2', 'Long', '1']]);
    expect(preview.ignored).toEqual({ 'cancelled orders': 1 });
    expect(preview.issues).toEqual([
      { row: 7, severity: 'error', message: "Missing or unreadable side (side 'Hold')" },
      { row: 8, severity: 'error', message: 'Missing or unreadable time' },
    ]);
  });

  it('order-level file (side, price, quantity, no pnl) with epoch timestamps, matched by FIFO', () => {
    const csv =
      'timestamp,symbol,side,price,quantity,stopPrice,limitPrice,account\n1736173800,ES,buy,5900.25,2,,,Main\n1736174100000,ES,sell,5901.75,2,,5901.75,Main\n';
    const preview = expectPreview(parseImport(csv));
    expect(preview.format.id).toBe('order-level');
    expect(viewTrade(preview.trades[0]!)).toMatchObject({
      side: 'Long',
      entryTime: '2025-01-06T14:30:00.000Z',
      exitTime: '2025-01-06T14:35:00.000Z',
      grossPnl: 15000,
    });
  });

  it('Quantower trades export (documented columns): executions with negative fees', () => {
    const csv = [
      'Account,Date/Time,Symbol,Side,Order type,Quantity,Price,Gross P/L,Fee,Net P/L,Trade ID,Order ID,Position ID',
      'APEX-1,06.05.2025 10:00:01,MESM5,Sell,Market,2,5600.25,0,-1.24,-1.24,T1,O1,P1',
      'APEX-1,06.05.2025 10:04:30,MESM5,Buy,Limit,2,5590.25,100,-1.24,98.76,T2,O2,P1',
    ].join('\n');
    const preview = expectPreview(parseImport(csv, { timeZone: 'Europe/Berlin' }));
    expect(preview.format.id).toBe('quantower');
    expect(viewTrade(preview.trades[0]!)).toEqual({
      contract: 'MESM5',
      symbol: 'MES',
      side: 'Short',
      entryTime: '2025-05-06T08:00:01.000Z',
      exitTime: '2025-05-06T08:04:30.000Z',
      quantity: '2',
      entryPrice: '5600.25',
      exitPrice: '5590.25',
      grossPnl: 10000,
      commission: 248,
      netPnl: 9752,
    });
  });

  it('generic P&L: grouped per day and symbol, currency symbols, separators and parentheses handled', () => {
    const preview = expectPreview(parseImport(own('generic-pnl.csv')));
    expect(preview.format.id).toBe('generic-pnl');
    expect(
      preview.trades.map((t) => [t.tradingDay, t.dayOfWeek, t.symbol, t.grossPnl, t.commission, t.netPnl, t.result, t.session, t.tradeDate]),
    ).toEqual([
      ['2025-01-06', 'Monday', 'NQ', 94950, 840, 94110, 'Win', 'AM', '2025-01-06T12:00:00.000Z'],
      ['2025-01-06', 'Monday', 'ES', -7500, 250, -7750, 'Loss', 'AM', '2025-01-06T12:00:00.000Z'],
      ['2025-01-07', 'Tuesday', 'NQ', -1225, 0, -1225, 'Loss', 'AM', '2025-01-07T12:00:00.000Z'],
    ]);
    // Multi-Position when more than one row went into the trade.
    expect(preview.trades[0]!.tags).toEqual(['Imported', 'Direct-Parse', 'Winner', 'NQ', 'AM', 'High-Impact', 'Multi-Position']);
    expect(preview.trades[1]!.tags).toEqual(['Imported', 'Direct-Parse', 'Loser', 'ES', 'AM', 'Medium-Impact']); // |-77.50|
    expect(preview.issues.map((i) => i.row)).toEqual([6, 7]);
  });

  it('JSON backup of the Trade Log: restored with its own session, type and tags; bad elements reported', () => {
    const preview = expectPreview(parseImport(own('trade-log-backup.json')));
    expect(preview.format.id).toBe('json-backup');
    expect(preview.trades.map((t) => [t.tradingDay, t.symbol, t.netPnl, t.commission, t.grossPnl, t.session, t.tradeType, t.result, t.tags])).toEqual(
      [
        ['2025-01-06', 'NQ', 24550, 450, 25000, 'AM', 'A/A+', 'Win', ['Winner', 'NQ']],
        ['2025-01-07', 'ES', -10025, 0, -10025, 'PM', 'Reversal', 'Loss', ['Loser', 'ES']],
      ],
    );
    expect(preview.trades[0]!.notes).toBe('Opening drive');
    expect(preview.issues.map((i) => [i.row, i.message])).toEqual([
      [3, 'Not a trade object'],
      [4, "Missing or unreadable date ''"],
    ]);
  });

  it('JSON backup: a NUL makes its row unreadable, and times PostgreSQL refuses are left out (both were 500s)', () => {
    const row = { trade_date: '2025-01-06T12:00:00.000Z', instrument: 'NQ', session: 'AM', pnl: 10 };
    const preview = expectPreview(
      parseImport(
        JSON.stringify([
          { ...row, notes: 'a\u0000b' },
          { ...row, tags: ['ok', 'x\u0000'] },
          { ...row, entry_time: '0000-01-01T00:00:00Z', exit_time: '2026-02-30T10:00:00Z' },
          { ...row, entry_time: '2025-01-06T14:30:00Z' },
        ]),
      ),
    );
    expect(preview.issues.map((i) => [i.row, i.message])).toEqual([
      [1, 'Unreadable notes: it contains a NUL character'],
      [2, 'Unreadable tags: it contains a NUL character'],
    ]);
    expect(preview.trades.map((t) => [t.entryTime, t.exitTime])).toEqual([
      [null, null],
      ['2025-01-06T14:30:00.000Z', null],
    ]);
  });
});

describe('fills kept with each trade', () => {
  it("Tradovate's Performance export: a trade's fills rebuilt from its pairs, each fill once with the quantity it traded; no costs in the file, so no fill has any", () => {
    const performance =
      'symbol,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,buyFillId,sellFillId\n' +
      'MNQM6,1,25000.00,25010.00,$20.00,04/09/2026 10:00:00,04/09/2026 10:05:00,100,300\n' +
      'MNQM6,1,25002.00,25010.00,$16.00,04/09/2026 10:01:00,04/09/2026 10:05:00,200,300\n';
    const [trade] = expectPreview(parseImport(performance)).trades;
    expect(trade!.fills!.map((f) => [f.side, f.quantity.toString(), f.price.toString(), new Date(f.time).toISOString(), f.commission, f.id])).toEqual(
      [
        ['Buy', '1', '25000', '2026-04-09T14:00:00.000Z', null, 'tradovate-fill:100'],
        ['Buy', '1', '25002', '2026-04-09T14:01:00.000Z', null, 'tradovate-fill:200'],
        ['Sell', '2', '25010', '2026-04-09T14:05:00.000Z', null, 'tradovate-fill:300'],
      ],
    );
  });

  it("Edgebook's backup restores each trade's fills; an unreadable fill makes its trade's element unreadable", () => {
    const backup = [
      {
        id: 'a',
        trade_date: '2026-03-09T12:00:00Z',
        symbol: 'MNQ',
        contract: 'MNQH6',
        side: 'Long',
        pnl: '19.48',
        commission: '0.52',
        fills: [
          { time: '2026-03-09T14:35:00.000Z', side: 'Buy', quantity: '1', price: '21050.25', commission: '0.26' },
          { time: '2026-03-09T14:40:00.000Z', side: 'Sell', quantity: '1', price: '21060.25', commission: null },
        ],
      },
      { id: 'b', trade_date: '2026-03-09T12:00:00Z', symbol: 'ES', pnl: '5', fills: [{ time: 'yesterday', side: 'Buy', quantity: '1', price: '1' }] },
    ];
    const preview = expectPreview(parseImport(JSON.stringify(backup)));
    expect(preview.trades).toHaveLength(1);
    expect(preview.trades[0]!.fills!.map((f) => [f.side, f.price.toString(), f.commission])).toEqual([
      ['Buy', '21050.25', 26],
      ['Sell', '21060.25', null],
    ]);
    expect(preview.issues).toEqual([
      { row: 2, severity: 'error', message: 'fills[0]: needs time, side (Buy or Sell), a positive quantity and a price' },
    ]);
  });
});

describe('robustness (fast-check): mutated and truncated files never throw', () => {
  const samples = [
    real('tradovate-performance/freetradejournal__tradovate-trades-performance.csv'),
    real('tradovate-position-history/pxdrx-wealth-investing__Position History (1).csv'),
    real('topstepx-orders/knealy-tradebotserver__orders_export.csv').slice(0, 3000),
    real('ninjatrader-trades/freetradejournal__ninjatrader-grid.csv'),
    own('generic-pnl.csv'),
    own('trade-log-backup.json'),
    own('fills-with-commission.csv'),
    // Statements, European re-saves, minute precision, several accounts.
    real('ibkr-activity/stephenkgli-trading-records__ibkr_activity.csv'),
    real('thinkorswim-statement/tradenote__TD_Ameritrade.csv'),
    own('ibkr-futures-statement.csv'),
    own('thinkorswim-futures-statement.csv'),
    own('tradovate-performance-european.csv'),
    own('ninjatrader-same-minute.csv'),
    own('tradovate-orders-two-accounts.csv'),
  ];

  it('truncation, deleted lines and replaced characters give a result or a clear failure, with issue rows in range', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...samples),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('', ',', '"', '\n', '\u0000', '$', '(', '-', 'x', '9', ' ', '\uFEFF')), { maxLength: 8 }),
        (sample, cut, edits) => {
          let text = sample.slice(0, cut % (sample.length + 1));
          for (const [at, replacement] of edits) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + replacement + text.slice(i + 1);
          }
          const result = parseImport(text, { timeZone: 'Europe/London', tradingDay: cut % 2 === 0 ? 'exchange' : 'calendar' });
          if (result.ok) {
            const lines = text.split('\n').length + 1;
            for (const issue of result.issues) expect(issue.row).toBeLessThanOrEqual(Math.max(lines, result.rowCount + 1));
            for (const trade of result.trades) expect(trade.netPnl).toBe(trade.grossPnl - trade.commission);
          } else {
            expect(result.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('robustness of column mappings (fast-check)', () => {
  const text = own('unknown-broker-fills.csv');
  const headers = ['Trade Time', 'Ticker', 'Action', 'Shares', 'Fill Price', 'Fees', 'Acct', 'Nope'];
  const column = fc.option(fc.constantFrom(...headers), { nil: undefined });

  it('any mapping of any columns gives a result or says what to fix; never a throw', () => {
    fc.assert(
      fc.property(
        fc.record({
          kind: fc.constantFrom('fills' as const, 'pnl' as const),
          time: fc.constantFrom(...headers),
          symbol: column,
          side: column,
          quantity: column,
          price: column,
          commission: column,
          pnl: column,
          account: column,
        }),
        fc.nat(),
        (raw, cut) => {
          const mapping = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as unknown as ColumnMapping;
          const result = parseImport(text.slice(0, Math.max(60, cut % (text.length + 1))), { mapping });
          if (result.ok) {
            for (const trade of result.trades) expect(trade.netPnl).toBe(trade.grossPnl - trade.commission);
          } else {
            expect(['invalid-mapping', 'no-data-rows']).toContain(result.code);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
