import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { cents, createAccount, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * Broker imports over HTTP (import twice -> no duplicates; a bad row aborts nothing silently; another
 * user's account id is refused; the whole import is one transaction). The broker files are the real exports in
 * ../shared/fixtures/brokers, read at test time.
 */
const brokers = new URL('../../../shared/fixtures/brokers/', import.meta.url);
const fixture = (path: string) => fs.readFileSync(new URL(path, brokers), 'utf8');

const TRADOVATE_SMALL = 'tradovate-performance/freetradejournal__tradovate-trades-performance.csv';
const TRADOVATE_LARGE = 'tradovate-performance/stephenkgli-trading-records__Performance.csv';
const TOPSTEPX = 'topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv';
const TOPSTEPX_BOM = 'topstepx-trades/topsignal__topstep_trade_export_utf8_bom.csv';
const PERFORMANCE_HEADER =
  'symbol,_priceFormat,_priceFormatType,_tickSize,buyFillId,sellFillId,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,duration';

interface Sent {
  status: number;
  body: any;
}

/** POSTs a file's bytes as the body, as the import dialog does. */
async function send(
  client: ApiClient,
  path: string,
  query: Record<string, string>,
  body: string | Uint8Array,
  contentType = 'text/csv',
): Promise<Sent> {
  const res = await fetch(`${client.baseUrl}${path}?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: client.cookieHeader, origin: client.baseUrl },
    body: typeof body === 'string' ? body : new Blob([body as Uint8Array<ArrayBuffer>]),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const preview = (client: ApiClient, query: Record<string, string>, body: string | Uint8Array, type?: string) =>
  send(client, '/api/imports/preview', query, body, type);
const importFile = (client: ApiClient, query: Record<string, string>, body: string | Uint8Array, type?: string) =>
  send(client, '/api/imports', query, body, type);

/** `n` Tradovate Performance pairs, one MNQ long a minute apart, each +1 point ($2); fill ids make each trade unique. */
function performanceRows(n: number, buyPriceOf: (i: number) => string = () => '20000.00'): string[] {
  return Array.from({ length: n }, (_, i) => {
    const minute = String(i % 60).padStart(2, '0');
    const hour = String(9 + (Math.floor(i / 60) % 8)).padStart(2, '0');
    const day = String(1 + Math.floor(i / 480)).padStart(2, '0');
    const id = 1 + i * 2;
    return `MNQM6,-2,0,0.25,${id},${id + 1},1,${buyPriceOf(i)},20001.00,$2.00,06/${day}/2026 ${hour}:${minute}:00,06/${day}/2026 ${hour}:${minute}:30,30sec`;
  });
}

describe.each(backends())('broker imports on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceAccount: { id: string };
  let bobAccount: { id: string };

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
    aliceAccount = await createAccount(alice, 'Alice Combine');
    bobAccount = await createAccount(bob, 'Bob Funded');
  });
  afterAll(() => app?.close());

  const tradesOf = (client: ApiClient, accountId: string) => listAll(client, `account=${accountId}`);

  describe('Tradovate Performance.csv', () => {
    let account: { id: string };
    beforeAll(async () => {
      account = await createAccount(alice, 'Tradovate');
    });

    it('previews the two round trips exactly, writes nothing, and counts no duplicates in a fresh account', async () => {
      const res = await preview(alice, { account_id: account.id, time_zone: 'America/New_York' }, fixture(TRADOVATE_SMALL));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        format: { id: 'tradovate-performance' },
        detected_format: null,
        time_zone: 'America/New_York',
        row_count: 2,
        total_trades: 2,
        new_trades: 2,
        duplicates: 0,
        open_positions: [],
        issues: [],
        unreadable_rows: 0,
        // -$400.00 and +$1,200.00 as the file says. The export has no costs, so the account's fee schedule (the
        // defaults: MNQ is a micro, $0.62 per contract per side) charges 5 x 2 x 0.62 = $6.20 a trade.
        totals: { trades: 2, gross_pnl: '800.00', commission: '12.40', net_pnl: '787.60' },
        costs_in_file: false,
        fee_schedules: [{ account_id: account.id, micro: '0.62', mini: '2.14', roots: {}, stored: false }],
      });
      expect(res.body.trades[0]).toMatchObject({
        rows: [2],
        date: '2026-06-10',
        trade_date: '2026-06-10T12:00:00.000Z',
        day_of_week: 'Wednesday',
        symbol: 'MNQ',
        contract: 'MNQM6',
        side: 'Long',
        // Entered 16:00:05 New York time: the exchange's After Hours.
        period: 'After Hours',
        // The side is the side; the setup is the trader's to choose.
        trade_type: '',
        status: 'Loss',
        entry_time: '2026-06-10T20:00:05.000Z',
        exit_time: '2026-06-10T20:00:29.000Z',
        quantity: '5',
        entry_price: '28531.75',
        exit_price: '28491.75',
        gross_pnl: '-400.00',
        commission: '6.20',
        pnl: '-406.20',
        commission_source: 'schedule',
        tags: ['Imported', 'Direct-Parse', 'Loser', 'MNQ', 'After Hours', 'Long', 'High-Impact'],
      });
      expect(await tradesOf(alice, account.id)).toEqual([]);
    });

    it('imports both trades with every column, then imports 0 on the second try and reports 2 duplicates', async () => {
      const first = await importFile(alice, { account_id: account.id, time_zone: 'America/New_York' }, fixture(TRADOVATE_SMALL));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ imported: 2, duplicates: 0, total_trades: 2, open_positions: 0, skipped_rows: 0 });

      const stored = (await tradesOf(alice, account.id)).sort((a, b) => a.trade_date.localeCompare(b.trade_date));
      expect(stored.map(pick)).toEqual([
        {
          account_id: account.id,
          date: '2026-06-10',
          day_of_week: 'Wednesday',
          symbol: 'MNQ',
          contract: 'MNQM6',
          side: 'Long',
          period: 'After Hours',
          trade_type: '',
          status: 'Loss',
          pnl: '-406.20',
          commission: '6.20',
          gross_pnl: '-400.00',
          entry_time: '2026-06-10T20:00:05.000Z',
          exit_time: '2026-06-10T20:00:29.000Z',
          entry_price: '28531.75000000',
          exit_price: '28491.75000000',
          quantity: '5.00000000',
          import_source: 'tradovate-performance',
        },
        {
          account_id: account.id,
          date: '2026-06-12',
          day_of_week: 'Friday',
          symbol: 'MNQ',
          contract: 'MNQM6',
          side: 'Long',
          period: 'AM',
          trade_type: '',
          status: 'Win',
          pnl: '1193.80',
          commission: '6.20',
          gross_pnl: '1200.00',
          entry_time: '2026-06-12T13:45:49.000Z',
          exit_time: '2026-06-12T13:57:07.000Z',
          entry_price: '29262.00000000',
          exit_price: '29382.00000000',
          quantity: '5.00000000',
          import_source: 'tradovate-performance',
        },
      ]);
      expect(stored[1]!.tags).toEqual(['Imported', 'Direct-Parse', 'Winner', 'MNQ', 'AM', 'Long', 'High-Impact']);

      const again = await importFile(alice, { account_id: account.id, time_zone: 'America/New_York' }, fixture(TRADOVATE_SMALL));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ imported: 0, duplicates: 2, total_trades: 2 });
      expect(await tradesOf(alice, account.id)).toHaveLength(2);

      const previewAgain = await preview(alice, { account_id: account.id, time_zone: 'America/New_York' }, fixture(TRADOVATE_SMALL));
      expect(previewAgain.body).toMatchObject({ total_trades: 2, new_trades: 0, duplicates: 2, trades: [] });
    });

    it('the same file into another account is not a duplicate there (keys are per account)', async () => {
      const other = await createAccount(alice, 'Tradovate copy');
      const res = await importFile(alice, { account_id: other.id, time_zone: 'America/New_York' }, fixture(TRADOVATE_SMALL));
      expect(res.body).toMatchObject({ imported: 2, duplicates: 0 });
    });

    it('an overlapping export adds only the trades the first did not have, and the account ends with the whole file', async () => {
      const target = await createAccount(alice, 'Overlap');
      const text = fixture(TRADOVATE_LARGE);
      const lines = text.split('\r\n');
      const zone = { account_id: target.id, time_zone: 'Asia/Shanghai' };
      const whole = await preview(alice, zone, text);
      expect(whole.body.issues).toEqual([]);
      const total = whole.body.total_trades as number;

      const early = await importFile(alice, zone, lines.slice(0, 120).join('\r\n'));
      const late = await importFile(alice, zone, [lines[0], ...lines.slice(60)].join('\r\n'));
      expect(early.body.imported + late.body.imported).toBe(total);
      expect(late.body.duplicates).toBeGreaterThan(0);
      const subset = await importFile(alice, zone, lines.slice(0, 40).join('\r\n'));
      expect(subset.body.imported).toBe(0);

      const stored = await tradesOf(alice, target.id);
      expect(stored).toHaveLength(total);
      // To the cent: the stored net pnl sums to the file's own P&L column less the scheduled costs of the preview.
      expect(stored.reduce((sum, t) => sum + cents(t.pnl), 0)).toBe(cents(whole.body.totals.net_pnl));
      expect(cents(whole.body.totals.gross_pnl) - cents(whole.body.totals.commission)).toBe(cents(whole.body.totals.net_pnl));
    });
  });

  describe('TopstepX trades export', () => {
    it('imports every trade with fees as commission and net pnl, from the file with and without a UTF-8 BOM', async () => {
      const account = await createAccount(alice, 'Topstep 50K');
      const text = fixture(TOPSTEPX);
      const seen = await preview(alice, { account_id: account.id }, text);
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(seen.body.format.id).toBe('topstepx-trades');
      expect(seen.body.unreadable_rows).toBe(0);
      const count = seen.body.total_trades as number;
      // 486 pairs (rows), rebuilt by FIFO into 334 round trips: pairs that share an entry or an exit are one trade.
      expect(count).toBe(334);
      // Row 2: MBTK5 long 1 @ 100285 -> 101010 = 725 points x $0.10 = $72.50 gross, $2.34 fees, $70.16 net.
      const mbt = (seen.body.trades as Array<Record<string, unknown>>).find((t) => (t.rows as number[]).includes(2))!;
      expect(mbt).toMatchObject({
        symbol: 'MBT',
        contract: 'MBTK5',
        side: 'Long',
        quantity: '1',
        entry_price: '100285',
        exit_price: '101010',
        gross_pnl: '72.50',
        commission: '2.34',
        pnl: '70.16',
        status: 'Win',
        entry_time: '2025-05-08T15:22:07.000Z',
      });

      const done = await importFile(alice, { account_id: account.id }, text);
      expect(done.body).toMatchObject({ imported: count, duplicates: 0 });
      const stored = await tradesOf(alice, account.id);
      expect(stored).toHaveLength(count);
      expect(stored.reduce((sum, t) => sum + cents(t.pnl), 0)).toBe(cents(seen.body.totals.net_pnl));
      expect(stored.reduce((sum, t) => sum + cents(t.commission), 0)).toBe(cents(seen.body.totals.commission));
      expect(stored.every((t) => t.import_source === 'topstepx-trades')).toBe(true);

      const again = await importFile(alice, { account_id: account.id }, text);
      expect(again.body).toMatchObject({ imported: 0, duplicates: count });

      // The BOM export of another trader: the BOM is not part of the first header.
      const bom = fs.readFileSync(new URL(TOPSTEPX_BOM, brokers));
      expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const bomImport = await importFile(alice, { account_id: account.id }, new Uint8Array(bom));
      expect(bomImport.status, JSON.stringify(bomImport.body)).toBe(200);
      expect(bomImport.body).toMatchObject({ imported: 1, format: { id: 'topstepx-trades' } });
    });
  });

  describe('accounts', () => {
    it('refuses an import without an account, with the spec message, and a malformed account naming the field', async () => {
      for (const query of [{}, { account_id: '' }] as Array<Record<string, string>>) {
        const res = await importFile(alice, query, fixture(TRADOVATE_SMALL));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: 'Please select a trading account', fields: [{ field: 'account_id' }] });
      }
      // An id that is no id is not a missing account.
      for (const send of [importFile, preview]) {
        const res = await send(alice, { account_id: 'not-a-uuid' }, fixture(TRADOVATE_SMALL));
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('account_id: must be a trading account id');
      }
    });

    it("refuses another trader's account for the preview and the import, and writes nothing there", async () => {
      const res = await importFile(alice, { account_id: bobAccount.id }, fixture(TRADOVATE_SMALL));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('account_id: Trading account not found');
      const seen = await preview(alice, { account_id: bobAccount.id }, fixture(TRADOVATE_SMALL));
      expect(seen.status).toBe(400);
      expect(await tradesOf(bob, bobAccount.id)).toEqual([]);
    });

    it('needs a session', async () => {
      const res = await fetch(`${app.url}/api/imports/preview`, { method: 'POST', body: fixture(TRADOVATE_SMALL) });
      expect(res.status).toBe(401);
    });
  });

  describe('files that are not trades', () => {
    const cases: Array<[string, string | Uint8Array, string, number, Record<string, unknown>]> = [
      ['an empty file', '', 'text/csv', 400, { code: 'empty-file', error: 'The file is empty' }],
      ['a blank file', ' \r\n \n', 'text/csv', 400, { code: 'empty-file' }],
      [
        'a binary file',
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3, 0, 0, 0]),
        'application/octet-stream',
        400,
        { code: 'binary-file' },
      ],
      ['an Excel workbook', new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 6, 0, 8, 0]), 'text/csv', 400, { code: 'binary-file' }],
      [
        'a JSON object',
        '{"trades": []}',
        'application/json',
        400,
        { code: 'not-an-array', error: 'Invalid file format: The file does not contain an array of trade data' },
      ],
      ['broken JSON', '[{"date": ', 'application/json', 400, { code: 'invalid-json' }],
      ['a CSV with only a header line', `${PERFORMANCE_HEADER}\n`, 'text/csv', 400, { code: 'no-data-rows' }],
      ['a CSV of an unknown format', 'foo,bar,baz\n1,2,3\n', 'text/csv', 400, { code: 'unknown-format', headers: ['foo', 'bar', 'baz'] }],
    ];
    it.each(cases)('refuses %s with a clear message', async (_name, body, type, status, expected) => {
      const res = await preview(alice, { account_id: aliceAccount.id }, body, type);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body).toMatchObject(expected);
      const imported = await importFile(alice, { account_id: aliceAccount.id }, body, type);
      expect(imported.status).toBe(status);
    });

    it('names the columns it saw for an unknown format', async () => {
      const res = await preview(alice, {}, 'Ticker,When,Amount\nNQ,2025-01-02,5\n');
      expect(res.body.error).toContain('Columns found: Ticker, When, Amount');
    });

    it('refuses a file over the size limit with 413 before parsing it', async () => {
      const big = new Uint8Array(50 * 1024 * 1024 + 1).fill(0x41);
      const res = await preview(alice, {}, big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'The file is too large to import (limit 50 MB)', code: 'too-large' });
    });

    it('refuses a form upload, an unknown format id and an unknown time zone', async () => {
      const form = await preview(alice, {}, 'a=b', 'application/x-www-form-urlencoded');
      expect(form.status).toBe(415);
      const format = await preview(alice, { format: 'no-such-format' }, fixture(TRADOVATE_SMALL));
      expect(format.body).toMatchObject({ code: 'unknown-format-id', error: "format: Unknown import format 'no-such-format'" });
      const zone = await preview(alice, { time_zone: 'Mars/Olympus' }, fixture(TRADOVATE_SMALL));
      expect(zone.status).toBe(400);
      expect(zone.body.error).toBe('time_zone: must be an IANA time zone such as America/New_York');
    });

    it('lists every format for the Trade Import Guide', async () => {
      const res = await alice.get('/api/imports/formats');
      expect(res.status).toBe(200);
      expect(res.body.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining(['tradovate-performance', 'topstepx-trades', 'json-backup']));
    });

    it('reads the Trade Log JSON backup too', async () => {
      const account = await createAccount(alice, 'Backup');
      const backup = JSON.stringify([
        { id: 'b-1', date: '2025-03-04', instrument: 'ES', session: 'AM', type: 'Breakout', pnl: -25, commission: 4, tags: ['Loser'] },
      ]);
      const res = await importFile(alice, { account_id: account.id }, backup, 'application/json');
      expect(res.body).toMatchObject({ imported: 1, format: { id: 'json-backup' } });
      const [trade] = await tradesOf(alice, account.id);
      expect(trade).toMatchObject({
        symbol: 'ES',
        period: 'AM',
        trade_type: 'Breakout',
        pnl: '-25.00',
        commission: '4.00',
        status: 'Loss',
        date: '2025-03-04',
      });
    });
  });

  describe('a bad row aborts nothing silently', () => {
    const goodAndBad = [
      PERFORMANCE_HEADER,
      'MNQM6,-2,0,0.25,101,102,1,20000.00,20004.00,$8.00,06/10/2026 10:00:00,06/10/2026 10:01:00,1min',
      'MNQM6,-2,0,0.25,103,104,1,twenty,20004.00,$8.00,06/10/2026 10:05:00,06/10/2026 10:06:00,1min',
      'MNQM6,-2,0,0.25,105,106,1,20000.00,20002.00,$4.00,06/10/2026 10:10:00,06/10/2026 10:11:00,1min',
      'MNQM6,-2,0,0.25,107,108,1,99999999999999999999,20002.00,$4.00,06/10/2026 10:20:00,06/10/2026 10:21:00,1min',
    ].join('\n');

    it('the preview names each unreadable row with its number and reason', async () => {
      const res = await preview(alice, { account_id: aliceAccount.id }, goodAndBad);
      expect(res.status).toBe(200);
      const errors = (res.body.issues as Array<{ row: number; severity: string; message: string }>).filter((i) => i.severity === 'error');
      expect(errors.map((e) => e.row)).toEqual([3, 5]);
      expect(errors[0]!.message).toMatch(/twenty|price/i);
      expect(errors[1]!.message).toMatch(/too large/);
      expect(res.body).toMatchObject({ unreadable_rows: 2, new_trades: 2 });
    });

    it('the import refuses until the trader confirms skipping them, then imports the readable ones', async () => {
      const account = await createAccount(alice, 'Bad rows');
      const refused = await importFile(alice, { account_id: account.id }, goodAndBad);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'unreadable-rows', unreadable_rows: 2 });
      expect(refused.body.error).toMatch(/^2 rows of the file could not be read \(first: row 3: /);
      expect(refused.body.issues.map((i: { row: number }) => i.row)).toEqual([3, 5]);
      expect(await tradesOf(alice, account.id)).toEqual([]);

      const confirmed = await importFile(alice, { account_id: account.id, skip_unreadable: 'true' }, goodAndBad);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ imported: 2, skipped_rows: 2 });
      // $8 and $4 gross, less 1 MNQ x 2 sides x $0.62 from the default schedule.
      expect((await tradesOf(alice, account.id)).map((t) => t.pnl).sort()).toEqual(['2.76', '6.76']);
    });
  });

  it('is one transaction: a failure in the middle of the insert leaves the account without any of the trades', async () => {
    const account = await createAccount(alice, 'Atomic');
    // 6,000 trades: the insert goes in chunks (5,000 on PostgreSQL, 1,000 on PGlite), and the trigger fails the 5,500th,
    // in a later statement than the first.
    const rows = performanceRows(6_000, (i) => (i === 5_499 ? '19999.75' : '20000.00'));
    const db = app.server.database.db;
    await db.execute(
      sql.raw(`
      create or replace function import_test_fail() returns trigger language plpgsql as $$
      begin
        if new.account_id = '${account.id}' and new.entry_price = 19999.75 then
          raise exception 'forced failure in the middle of an import';
        end if;
        return new;
      end $$
    `),
    );
    await db.execute(sql.raw('create trigger import_test_fail before insert on trades for each row execute function import_test_fail()'));
    try {
      const text = [PERFORMANCE_HEADER, ...rows].join('\n');
      const seen = await preview(alice, { account_id: account.id, time_zone: 'America/New_York', limit: '10000' }, text);
      expect(seen.body.new_trades).toBe(6_000);
      const prices = (seen.body.trades as Array<{ entry_price: string }>).map((t) => t.entry_price);
      expect(prices.indexOf('19999.75')).toBe(5_499);

      const res = await importFile(alice, { account_id: account.id, time_zone: 'America/New_York' }, text);
      expect(res.status).toBe(500);
      expect(await tradesOf(alice, account.id)).toEqual([]);
    } finally {
      await db.execute(sql.raw('drop trigger import_test_fail on trades'));
      await db.execute(sql.raw('drop function import_test_fail()'));
    }
    // Without the fault the same file goes in whole.
    const res = await importFile(alice, { account_id: account.id, time_zone: 'America/New_York' }, [PERFORMANCE_HEADER, ...rows].join('\n'));
    expect(res.body).toMatchObject({ imported: 6_000, duplicates: 0 });
  });

  it('gives the trades of an import ids that grow in the order of the file, fills with them', async () => {
    const account = await createAccount(alice, 'Ordered ids');
    // More trades than one statement of PGlite's takes: the order holds across the statements of one import.
    const res = await importFile(
      alice,
      { account_id: account.id, time_zone: 'America/New_York' },
      [PERFORMANCE_HEADER, ...performanceRows(600)].join('\n'),
    );
    expect(res.body).toMatchObject({ imported: 600, duplicates: 0 });
    const stored = (await app.server.database.db.execute(
      sql`select t.id::text as id, (select count(*)::int from trade_fills f where f.trade_id = t.id) as fills
        from trades t where t.account_id = ${account.id} order by t.created_at`,
    )) as unknown as { rows: Array<{ id: string; fills: number }> };
    const ids = stored.rows.map((r) => r.id);
    expect(ids).toHaveLength(600);
    // Version-7 UUIDs (RFC 9562 variant), each greater than the one before and all different.
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(600);
    // Each round trip keeps its two fills (a buy and a sell) under its id.
    expect(stored.rows.every((r) => r.fills === 2)).toBe(true);
  });
});

function pick(t: TradeDto) {
  return {
    account_id: t.account_id,
    date: t.date,
    day_of_week: t.day_of_week,
    symbol: t.symbol,
    contract: t.contract,
    side: t.side,
    period: t.period,
    trade_type: t.trade_type,
    status: t.status,
    pnl: t.pnl,
    commission: t.commission,
    gross_pnl: t.gross_pnl,
    entry_time: t.entry_time,
    exit_time: t.exit_time,
    entry_price: t.entry_price,
    exit_price: t.exit_price,
    quantity: t.quantity,
    import_source: t.import_source,
  };
}
