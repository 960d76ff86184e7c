import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { importFile, ownFile, previewFile } from './imports-support';
import { createAccount, listAll, newTrader } from './trades-support';

/**
 * What the preview tells the trader before anything is stored. A file in London time
 * read as New York (fills in the exchange's daily halt) is flagged with the zones that fit; a European re-save is read
 * with its decimal commas; same-minute NinjaTrader fills are marked ambiguous.
 */
describe.each(backends())('import checks on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  beforeAll(async () => {
    app = await startTestApp({ backend });
    trader = await newTrader(app, 'checker');
  });
  afterAll(() => app?.close());

  it('warns when the times do not fit the chosen zone, proposing the browser zone first, and imports as the trader chooses', async () => {
    const account = await createAccount(trader, 'London desk');
    const file = ownFile('tradovate-performance-london.csv');
    const asNewYork = await previewFile(trader, { account_id: account.id, time_zone: 'America/New_York', browser_time_zone: 'Europe/London' }, file);
    expect(asNewYork.status, JSON.stringify(asNewYork.body)).toBe(200);
    expect(asNewYork.body.time_zone_check).toMatchObject({
      chosen: { zone: 'America/New_York', closed: 4 },
      suggested: { zone: 'Europe/London', closed: 0 },
    });
    expect(asNewYork.body.issues).toEqual([
      {
        row: 0,
        severity: 'warning',
        message: expect.stringMatching(/^Read as America\/New_York time, 4 of 12 fills fall while the exchange is closed/),
      },
    ]);
    // A warning does not stop the trader, it informs them: nothing is unreadable.
    expect(asNewYork.body.unreadable_rows).toBe(0);

    const asLondon = await previewFile(trader, { account_id: account.id, time_zone: 'Europe/London' }, file);
    expect(asLondon.body.time_zone_check).toBeNull();
    expect(asLondon.body.issues).toEqual([]);
    const done = await importFile(trader, { account_id: account.id, time_zone: 'Europe/London' }, file);
    expect(done.body.imported).toBe(6);
    const stored = (await listAll(trader, `account=${account.id}`)).sort((a, b) => String(a.entry_time).localeCompare(String(b.entry_time)));
    expect(stored[0]).toMatchObject({ entry_time: '2025-07-15T13:35:10.000Z', period: 'AM', date: '2025-07-15' });
  });

  it('a bad browser zone is ignored rather than refused (it only orders the proposals)', async () => {
    const res = await previewFile(
      trader,
      { time_zone: 'America/New_York', browser_time_zone: 'Nowhere/City' },
      ownFile('tradovate-performance-london.csv'),
    );
    expect(res.status).toBe(200);
    expect(res.body.time_zone_check.suggested.zone).toBe('Europe/London');
  });

  it('reads a semicolon file with decimal commas and day-first dates, saying so', async () => {
    const account = await createAccount(trader, 'Euro Excel');
    const res = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, ownFile('tradovate-performance-european.csv'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ imported: 4, skipped_rows: 0 });
    const stored = (await listAll(trader, `account=${account.id}`)).map((t) => [t.contract, t.entry_price, t.exit_price, t.pnl]).sort();
    // Net of the default fee schedule ($0.62 per micro contract per side): the export has no costs.
    expect(stored).toEqual([
      ['MESU6', '2499.50000000', '2506.75000000', '35.01'],
      ['MESU6', '2508.25000000', '2510.00000000', '-29.97'],
      ['MNQM6', '28531.75000000', '28491.75000000', '-406.20'],
      ['MNQM6', '29262.00000000', '29382.00000000', '1193.80'],
    ]);
  });

  it('marks NinjaTrader trades whose same-minute fills could be read two ways', async () => {
    const res = await previewFile(trader, { time_zone: 'America/New_York' }, ownFile('ninjatrader-same-minute.csv'));
    expect(res.status).toBe(200);
    const ambiguous = (res.body.trades as Array<{ ambiguity: string | null; quantity: string; rows: number[] }>).filter((t) => t.ambiguity);
    expect(ambiguous.map((t) => [t.quantity, t.rows])).toEqual([['3', [2, 3]]]);
    expect(ambiguous[0]!.ambiguity).toMatch(/share a minute/);
  });

  describe('other brokers (point 8)', () => {
    const FILLS = {
      kind: 'fills',
      time: 'Trade Time',
      symbol: 'Ticker',
      side: 'Action',
      quantity: 'Shares',
      price: 'Fill Price',
      commission: 'Fees',
      account: 'Acct',
    };

    it('reads Interactive Brokers and thinkorswim statements', async () => {
      const account = await createAccount(trader, 'Statements');
      const ibkr = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, ownFile('ibkr-futures-statement.csv'));
      expect(ibkr.status, JSON.stringify(ibkr.body)).toBe(200);
      expect(ibkr.body).toMatchObject({ imported: 3, format: { id: 'ibkr-activity' } });
      const tos = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, ownFile('thinkorswim-futures-statement.csv'));
      expect(tos.body).toMatchObject({ format: { id: 'thinkorswim-statement' } });
      // The same MES round trip is in both statements: the second one recognises it from the first (point 6).
      expect(tos.body).toMatchObject({ imported: 1, duplicates: 1 });
      const stored = await listAll(trader, `account=${account.id}`);
      expect(stored.map((t) => [t.contract, t.pnl, t.date]).sort()).toEqual([
        ['MESU5', '62.52', '2025-07-14'],
        ['MNQU5', '-24.74', '2025-07-14'],
        ['MNQU5', '-25.70', '2025-07-15'],
        ['ZNU5', '74.09', '2025-07-14'],
      ]);
    });

    it('an unknown CSV says which columns it has; with a mapping it previews and imports; the mapping is remembered', async () => {
      const account = await createAccount(trader, 'Mapped');
      const file = ownFile('unknown-broker-fills.csv');
      const unknown = await previewFile(trader, { account_id: account.id }, file);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        code: 'unknown-format',
        headers: ['Trade Time', 'Ticker', 'Action', 'Shares', 'Fill Price', 'Fees', 'Acct'],
      });

      const mapped = await previewFile(trader, { account_id: account.id, time_zone: 'America/New_York', mapping: JSON.stringify(FILLS) }, file);
      expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
      expect(mapped.body).toMatchObject({ format: { id: 'mapped' }, mapping: FILLS, mapping_remembered: false, new_trades: 2, costs_in_file: true });
      expect(mapped.body.trades.map((t: { symbol: string; pnl: string }) => [t.symbol, t.pnl])).toEqual([
        ['MES', '62.52'],
        ['MNQ', '21.76'],
      ]);
      // Previewing does not remember anything.
      expect((await previewFile(trader, { account_id: account.id }, file)).status).toBe(400);

      const done = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York', mapping: JSON.stringify(FILLS) }, file);
      expect(done.body).toMatchObject({ imported: 2, format: { id: 'mapped' } });
      // The next export of that platform (same header, other rows, other case) is read with the remembered mapping.
      const next = file.replace('Trade Time,Ticker', 'TRADE TIME,ticker').replace(/2025-08-04/g, '2025-08-05');
      const again = await previewFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, next);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ format: { id: 'mapped' }, mapping_remembered: true, new_trades: 2 });

      // Another trader's files are not read with this trader's mapping.
      const other = await newTrader(app, 'other-mapper');
      expect((await previewFile(other, {}, file)).body.code).toBe('unknown-format');
    });

    it('refuses a mapping that is not one, naming the field or the column', async () => {
      const file = ownFile('unknown-broker-fills.csv');
      for (const [mapping, message] of [
        ['{oops', /^mapping/],
        [JSON.stringify({ kind: 'orders', time: 'Trade Time' }), /^mapping/],
        [JSON.stringify({ ...FILLS, extra: 'x' }), /^mapping/],
        [JSON.stringify({ ...FILLS, price: 'Nope' }), /^The file has no column 'Nope' \(for price\)$/],
      ] as Array<[string, RegExp]>) {
        const res = await previewFile(trader, { mapping }, file);
        expect(res.status, mapping).toBe(400);
        expect(res.body.error, mapping).toMatch(message);
      }
    });
  });
});
