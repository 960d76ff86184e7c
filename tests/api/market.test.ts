import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { tradovateExports } from '../support/broker-files';
import { enterParseGate } from '../../src/server/core/parse/parse-pool';
import { importFile, sendFile } from './imports-support';
import { createAccount, createTrade, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * Fills and bars over HTTP, on both databases: every fill kept (imports, re-imports, the two-export rule, manual
 * trades, the backup), price bars that are their uploader's alone (read, replaced and deleted by them only), and each
 * trade's MAE and MFE stored and computed again when bars or the trade change. Wednesday 5 March 2025: 10:00 New York
 * is 15:00 UTC.
 */

// Fills of one account: a long of 2 scaled in, closed by a sell of 3 whose third contract opens a short of 1.
const FILLS_CSV = [
  'filltime,account,symbol,side,qty,fillprice,status,commission,fillid',
  '2025-03-05 10:00:30,ACC1,MNQH5,Buy,1,21000.00,Filled,0.52,F1',
  '2025-03-05 10:01:30,ACC1,MNQH5,Buy,1,20996.00,Filled,0.52,F2',
  '2025-03-05 10:04:10,ACC1,MNQH5,Sell,3,21010.00,Filled,1.56,F3',
  '2025-03-05 10:06:00,ACC1,MNQH5,Buy,1,21008.00,Filled,0.52,F4',
  '',
].join('\n');

const SESSION: Record<string, [number, number, number, number]> = {
  '10:00': [21000, 21003, 20996, 21002],
  '10:01': [21002, 21008, 20994, 21006],
  '10:02': [21006, 21015, 21004, 21012],
  '10:03': [21012, 21013, 21005, 21009],
  '10:04': [21009, 21011, 21007, 21010],
  '10:05': [21010, 21013, 21009, 21012],
  '10:06': [21012, 21014, 21006, 21008],
};

/** TradingView's chart export of MNQH5 1-minute bars, 09:50 to 11:10 New York (81 bars), unix seconds. */
function tradingViewBars(change: (minute: string, ohlc: number[]) => number[] = (_m, ohlc) => ohlc): string {
  const lines = ['time,open,high,low,close,Volume'];
  let close = 21000;
  for (let t = Date.UTC(2025, 2, 5, 14, 50); t <= Date.UTC(2025, 2, 5, 16, 10); t += 60_000) {
    const local = new Date(t - 5 * 3_600_000);
    const minute = `${local.getUTCHours()}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const ohlc = change(minute, SESSION[minute] ?? [close, close, close, close]);
    close = ohlc[3]!;
    lines.push(`${t / 1000},${ohlc.join(',')},10`);
  }
  return `${lines.join('\n')}\n`;
}

const barsQuery = (extra: Record<string, string> = {}) => ({ contract: 'MNQH5', ...extra });
const uploadBars = (client: ApiClient, csv: string, extra: Record<string, string> = {}) =>
  sendFile(client, '/api/market/bars', barsQuery(extra), csv);
const previewBars = (client: ApiClient, csv: string, extra: Record<string, string> = {}) =>
  sendFile(client, '/api/market/bars/preview', barsQuery(extra), csv);

describe.each(backends())('fills, price bars and excursions on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceAccount: { id: string };
  const rows = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    ((await app.server.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
    aliceAccount = await createAccount(alice, 'Apex 50k');
    const imported = await importFile(alice, { account_id: aliceAccount.id, time_zone: 'America/New_York' }, FILLS_CSV);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 2, fills_attached: 0 });
  });
  afterAll(() => app?.close());

  const tradesOf = async (client: ApiClient, query = '') =>
    (await listAll(client, query)).sort((a, b) => String(a.entry_time).localeCompare(String(b.entry_time)));

  it('keeps every fill of an imported trade in the order traded; a fill FIFO splits gives each trade its share; another trader can neither read nor change them', async () => {
    const [long, short] = await tradesOf(alice);
    expect([long!.side, long!.quantity, short!.side, short!.quantity]).toEqual(['Long', '2.00000000', 'Short', '1.00000000']);
    const details = await alice.get(`/api/trade-details/${long!.id}`);
    expect(details.body.fills).toEqual([
      { time: '2025-03-05T15:00:30.000Z', side: 'Buy', quantity: '1', price: '21000', commission: '0.52' },
      { time: '2025-03-05T15:01:30.000Z', side: 'Buy', quantity: '1', price: '20996', commission: '0.52' },
      // 2 of the sell's 3 contracts, and 2/3 of its $1.56
      { time: '2025-03-05T15:04:10.000Z', side: 'Sell', quantity: '2', price: '21010', commission: '1.04' },
    ]);
    expect(details.body.fills_editable).toBe(false);
    const shortFills = await alice.get(`/api/trades/${short!.id}/fills`);
    expect(shortFills.body).toEqual({
      trade_id: short!.id,
      editable: false,
      fills: [
        { time: '2025-03-05T15:04:10.000Z', side: 'Sell', quantity: '1', price: '21010', commission: '0.52' },
        { time: '2025-03-05T15:06:00.000Z', side: 'Buy', quantity: '1', price: '21008', commission: '0.52' },
      ],
    });
    // Bob knows the ids: not his trades, so no such trades.
    expect((await bob.get(`/api/trades/${long!.id}/fills`)).status).toBe(404);
    expect((await bob.put(`/api/trades/${long!.id}/fills`, { fills: [] })).status).toBe(404);
    expect((await bob.get(`/api/market/trades/${long!.id}/chart`)).status).toBe(404);
    expect((await bob.get(`/api/trade-details/${long!.id}`)).status).toBe(404);
    // An imported trade keeps the broker's fills.
    expect((await alice.put(`/api/trades/${long!.id}/fills`, { fills: [] })).status).toBe(409);
    const stored = await rows<{ n: number }>(sql`select count(*)::int as n from trade_fills where trade_id = ${long!.id}`);
    expect(stored[0]!.n).toBe(3);
  });

  it('a re-import adds no trade, and gives its fills to the trades stored before fills were kept', async () => {
    const before = await tradesOf(alice);
    // As a trade imported by an earlier version is stored: without fills.
    await rows(
      sql`delete from trade_fills where trade_id in (${sql.join(
        before.map((t) => sql`${t.id}::uuid`),
        sql`, `,
      )})`,
    );
    const again = await importFile(alice, { account_id: aliceAccount.id, time_zone: 'America/New_York' }, FILLS_CSV);
    expect(again.body).toMatchObject({ imported: 0, duplicates: 2, fills_attached: 2 });
    expect((await tradesOf(alice)).map((t) => t.id)).toEqual(before.map((t) => t.id));
    expect((await alice.get(`/api/trades/${before[0]!.id}/fills`)).body.fills).toHaveLength(3);
    // Once more: the trades have their fills, so nothing is added twice.
    expect((await importFile(alice, { account_id: aliceAccount.id, time_zone: 'America/New_York' }, FILLS_CSV)).body).toMatchObject({
      imported: 0,
      fills_attached: 0,
    });
    const counts = await rows<{ n: number }>(
      sql`select count(*)::int as n from trade_fills where trade_id in (${sql.join(
        before.map((t) => sql`${t.id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(counts[0]!.n).toBe(5);
  });

  it('another export of the same account (the two-export rule) finds the stored trades, and gives its fills to those that have none', async () => {
    const trader = await newTrader(app, 'carol');
    const account = await createAccount(trader, 'Eval');
    const { orders, performance } = tradovateExports(40);
    const first = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, orders);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const trades = await listAll(trader);
    expect(trades.length).toBe(first.body.imported);
    const ids = sql.join(
      trades.map((t) => sql`${t.id}::uuid`),
      sql`, `,
    );
    const fillsBefore = (await rows<{ n: number }>(sql`select count(*)::int as n from trade_fills where trade_id in (${ids})`))[0]!.n;
    expect(fillsBefore).toBeGreaterThanOrEqual(2 * trades.length);
    await rows(sql`delete from trade_fills where trade_id in (${ids})`);
    const second = await importFile(trader, { account_id: account.id, time_zone: 'America/New_York' }, performance);
    expect(second.body).toMatchObject({ imported: 0, duplicates: trades.length, fills_attached: trades.length });
    expect(await listAll(trader)).toHaveLength(trades.length);
    // The Performance export's fills describe the same executions: per trade, the same quantities bought and sold.
    for (const trade of trades.slice(0, 5)) {
      const { fills } = (await trader.get(`/api/trades/${trade.id}/fills`)).body as { fills: Array<{ side: string; quantity: string }> };
      const bought = fills.filter((f) => f.side === 'Buy').reduce((sum, f) => sum + Number(f.quantity), 0);
      const sold = fills.filter((f) => f.side === 'Sell').reduce((sum, f) => sum + Number(f.quantity), 0);
      expect([bought, sold]).toEqual([Number(trade.quantity), Number(trade.quantity)]);
    }
  });

  it("a manual trade's fills are the trader's: the trade's prices, quantity, times and gross follow them; bad fills are a 400 naming the fill", async () => {
    const trade = await createTrade(alice, { date: '2025-03-05', symbol: 'NQ', pnl: 0, commission: 0 });
    const saved = await alice.put(`/api/trades/${trade.id}/fills`, {
      fills: [
        { time: '2025-03-05T15:00:00Z', side: 'Buy', quantity: 1, price: '21000', commission: '2.14' },
        { time: '2025-03-05T15:02:00Z', side: 'Buy', quantity: 1, price: '20990.5', commission: '2.14' },
        { time: '2025-03-05T15:09:00-05:00', side: 'Sell', quantity: 2, price: '21015.125', commission: '4.28' },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.editable).toBe(true);
    const after = (await alice.get(`/api/trades/${trade.id}`)).body;
    // (21015.125 x 2) - (21000 + 20990.5) = 39.75 points x $20 = 795.00; costs 8.56
    expect(after).toMatchObject({
      side: 'Long',
      quantity: '2.00000000',
      entry_price: '20995.25000000',
      exit_price: '21015.12500000',
      entry_time: '2025-03-05T15:00:00.000Z',
      exit_time: '2025-03-05T20:09:00.000Z',
      gross_pnl: '795.00',
      commission: '8.56',
      pnl: '786.44',
      status: 'Win',
      date: '2025-03-05',
    });
    const bad = await alice.put(`/api/trades/${trade.id}/fills`, {
      fills: [
        { time: '2025-03-05T15:00:00Z', side: 'Buy', quantity: 1, price: '21000' },
        { time: '2025-03-05T15:01:00Z', side: 'Sell', quantity: 1, price: 'abc' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('fills.1.price: must be a number with at most 8 decimals');
    const open = await alice.put(`/api/trades/${trade.id}/fills`, {
      fills: [
        { time: '2025-03-05T15:00:00Z', side: 'Buy', quantity: 2, price: '21000' },
        { time: '2025-03-05T15:01:00Z', side: 'Sell', quantity: 1, price: '21001' },
      ],
    });
    expect([open.status, open.body.error]).toEqual([
      400,
      'fills: 1 contract is still open after the last fill; add the fills that close the position',
    ]);
    expect(
      (await alice.put(`/api/trades/${trade.id}/fills`, { fills: [{ time: '2025-03-05 15:00', side: 'Buy', quantity: 1, price: 1 }] })).body.error,
    ).toMatch(/^fills\.0\.time: /);
    // A refused change changed nothing.
    expect((await alice.get(`/api/trades/${trade.id}/fills`)).body.fills).toHaveLength(3);
    // Removing every fill keeps what the trade says.
    expect((await alice.put(`/api/trades/${trade.id}/fills`, { fills: [] })).body.fills).toEqual([]);
    expect((await alice.get(`/api/trades/${trade.id}`)).body).toMatchObject({ gross_pnl: '795.00', pnl: '786.44' });
    await alice.delete(`/api/trades/${trade.id}`);
  });

  it("bars are their uploader's: another trader neither reads nor deletes them; a re-upload changes nothing, a conflict is reported and kept unless the uploader replaces it", async () => {
    // Bob's own MNQH5 trade in the same minutes, entered by hand with its fills.
    const bobs = await createTrade(bob, { date: '2025-03-05', symbol: 'MNQH5', pnl: 0 });
    await bob.put(`/api/trades/${bobs.id}/fills`, {
      fills: [
        { time: '2025-03-05T15:01:20Z', side: 'Sell', quantity: 1, price: '21006' },
        { time: '2025-03-05T15:03:40Z', side: 'Buy', quantity: 1, price: '21009' },
      ],
    });
    const anonymous = await fetch(`${app.url}/api/market/bars?contract=MNQH5`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', origin: app.url },
      body: tradingViewBars(),
    });
    expect(anonymous.status).toBe(401);

    const preview = await previewBars(alice, tradingViewBars());
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({
      format: { id: 'tradingview-bars' },
      resolution: 60,
      series: [{ contract: 'MNQH5', bars: 81, already_stored: 0, conflicting: 0 }],
      contradictions: [],
    });
    expect((await rows(sql`select 1 from price_bars`)).length).toBe(0);

    const uploaded = await uploadBars(alice, tradingViewBars());
    expect(uploaded.body).toMatchObject({ added: 81, unchanged: 0, conflicting: 0, resolution: 60, trades_updated: 2 });
    // Alice's long: from its average entry 20998, MAE 4 points ($16 for 2 contracts), MFE 17 ($68); capture 48/68.
    const [long] = await tradesOf(alice, `account=${aliceAccount.id}`);
    const stored = await rows<{ user_id: string; status: string; mae: string; mfe: string; capture: string }>(
      sql`select user_id, status, mae::text, mfe::text, capture::text from trade_excursions where trade_id = ${long!.id}`,
    );
    expect(stored).toEqual([expect.objectContaining({ status: 'complete', mae: '16.00', mfe: '68.00', capture: '0.7059' })]);
    // Bob's trade is not measured from Alice's bars: he has none of his own.
    expect(await rows(sql`select 1 from trade_excursions where trade_id = ${bobs.id}`)).toEqual([]);

    // Bob sees none of them: not in his coverage (nor the minutes Alice traded), not on his chart.
    expect((await bob.get('/api/market/bars/coverage')).body).toEqual({ time_zone: 'America/New_York', days: [] });
    const chart = await bob.get(`/api/market/trades/${bobs.id}/chart?padding=5`);
    expect(chart.status, JSON.stringify(chart.body)).toBe(200);
    expect(chart.body).toMatchObject({ resolution: null, bars: [], excursions: { status: 'no-bars', contract: 'MNQH5' } });
    // Alice's coverage lists her bars.
    expect((await alice.get('/api/market/bars/coverage')).body.days).toEqual([
      {
        contract: 'MNQH5',
        resolution: 60,
        day: '2025-03-05',
        bars: 81,
        first: '2025-03-05T14:50:00.000Z',
        last: '2025-03-05T16:10:00.000Z',
        mine: 81,
      },
    ]);

    // Bob cannot delete Alice's bars (the service asks only for his, and the policy hides hers from him anyway).
    expect((await bob.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toEqual({
      deleted: 0,
      kept: 0,
      trades_updated: 0,
    });
    const bobId = (await rows<{ id: string }>(sql`select id from "user" where email like 'bob-%'`))[0]!.id;
    await app.server.database.withUser(bobId, (tx) => tx.execute(sql`delete from price_bars where contract = 'MNQH5'`));
    await app.server.database.withUser(bobId, (tx) => tx.execute(sql`update price_bars set high = 99999 where contract = 'MNQH5'`));
    expect((await app.server.database.withUser(bobId, (tx) => tx.execute(sql`select count(*)::int as n from price_bars`))) as unknown).toMatchObject({
      rows: [{ n: 0 }],
    });
    expect((await rows(sql`select 1 from price_bars where high < 99999`)).length).toBe(81);

    // The same file again changes nothing; a file that disagrees on one bar is reported and the stored bar kept.
    expect((await uploadBars(alice, tradingViewBars())).body).toMatchObject({ added: 0, unchanged: 81, conflicting: 0, trades_updated: 0 });
    const other = tradingViewBars((minute, ohlc) => (minute === '10:02' ? [21006, 21015, 21004, 21011] : ohlc));
    const disagreeing = await uploadBars(alice, other);
    expect(disagreeing.body).toMatchObject({ added: 0, unchanged: 80, conflicting: 1, replaced: 0 });
    expect(disagreeing.body.conflicts).toEqual([
      {
        contract: 'MNQH5',
        start: '2025-03-05T15:02:00.000Z',
        stored: { open: '21006', high: '21015', low: '21004', close: '21012', volume: '10' },
        file: { open: '21006', high: '21015', low: '21004', close: '21011', volume: '10' },
      },
    ]);
    expect((await rows<{ close: string }>(sql`select close::text from price_bars where start = '2025-03-05T15:02:00Z'`))[0]!.close).toBe(
      '21012.00000000',
    );
    // Alice can always replace her own bars.
    expect((await uploadBars(alice, other, { replace: 'true' })).body).toMatchObject({ added: 0, unchanged: 80, conflicting: 0, replaced: 1 });
    expect((await rows<{ close: string }>(sql`select close::text from price_bars where start = '2025-03-05T15:02:00Z'`))[0]!.close).toBe(
      '21011.00000000',
    );
    expect((await uploadBars(alice, tradingViewBars(), { replace: 'true' })).body).toMatchObject({ replaced: 1 });

    // Alice deletes her bars of the day: the figures that read them go (there are no bars left to compute from).
    expect((await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toEqual({
      deleted: 81,
      kept: 0,
      trades_updated: 0,
    });
    expect(await rows(sql`select 1 from trade_excursions where trade_id = ${long!.id} or trade_id = ${bobs.id}`)).toEqual([]);
    const missing = await alice.get(`/api/market/trades/${long!.id}/chart`);
    expect(missing.body).toMatchObject({ resolution: null, bars: [], excursions: { status: 'no-bars', contract: 'MNQH5' } });
    await bob.delete(`/api/trades/${bobs.id}`);
  });

  it("a second trader's poisoned bars never reach the first's figures, chart or coverage", async () => {
    expect((await uploadBars(alice, tradingViewBars())).body).toMatchObject({ added: 81 });
    const [long] = await tradesOf(alice, `account=${aliceAccount.id}`);
    const before = (await alice.get(`/api/market/trades/${long!.id}/chart`)).body;
    expect(before.excursions).toMatchObject({
      status: 'complete',
      mae: { dollars: '16.00' },
      mfe: { dollars: '68.00' },
      sources: [{ id: 'upload', label: 'your uploads' }],
    });
    // Bob uploads MNQH5 bars over the same minutes with a high of 99,999 and a low of 1 (and two days Alice has none of).
    const poisoned = tradingViewBars(() => [21000, 99999, 1, 21000]);
    const extra = ['time,open,high,low,close,Volume', ...[0, 1].map((m) => `${Date.UTC(2025, 2, 7, 15, m) / 1000},1,99999,1,1,1`)].join('\n');
    expect((await uploadBars(bob, poisoned)).body).toMatchObject({ added: 81, trades_updated: 0 });
    expect((await uploadBars(bob, `${extra}\n`, { resolution: '60' })).status).toBe(200);
    // Alice's stored figures, the Trade Log's and her chart's stay as her own bars say.
    expect(await rows<{ mae: string; mfe: string }>(sql`select mae::text, mfe::text from trade_excursions where trade_id = ${long!.id}`)).toEqual([
      { mae: '16.00', mfe: '68.00' },
    ]);
    const after = (await alice.get(`/api/market/trades/${long!.id}/chart`)).body;
    expect(after.excursions).toMatchObject({ mae: { dollars: '16.00' }, mfe: { dollars: '68.00' } });
    expect(Math.max(...after.bars.map((b: number[]) => b[2]!))).toBeLessThan(21100);
    // Her coverage is hers; Bob's is his.
    expect((await alice.get('/api/market/bars/coverage')).body.days.map((d: { day: string; bars: number }) => [d.day, d.bars])).toEqual([
      ['2025-03-05', 81],
    ]);
    expect((await bob.get('/api/market/bars/coverage')).body.days.map((d: { day: string; bars: number }) => [d.day, d.bars])).toEqual([
      ['2025-03-07', 2],
      ['2025-03-05', 81],
    ]);
    // Alice deleting her day leaves Bob's bars; Bob deleting his leaves hers.
    expect((await bob.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toMatchObject({ deleted: 81 });
    expect((await bob.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-07')).body).toMatchObject({ deleted: 2 });
    expect((await alice.get('/api/market/bars/coverage')).body.days).toHaveLength(1);
    expect((await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toMatchObject({ deleted: 81 });
  });

  it("bars Alice's own fills contradict (another contract month labelled as hers) are refused naming the contract and the first fills, and stored only if she insists", async () => {
    // The June contract traded ~250 points above March: every fill of Alice's lies outside its minute's bar.
    const june = tradingViewBars((_m, ohlc) => ohlc.map((price) => price + 250));
    const preview = await previewBars(alice, june);
    expect(preview.status).toBe(200);
    expect(preview.body.contradictions).toEqual([
      {
        contract: 'MNQH5',
        // The long's three fills and the short's two.
        fills_checked: 5,
        fills_outside: 5,
        first: [
          {
            trade_id: expect.any(String),
            time: '2025-03-05T15:00:30.000Z',
            side: 'Buy',
            quantity: '1',
            price: '21000',
            bar_low: '21246',
            bar_high: '21253',
          },
          expect.objectContaining({ time: '2025-03-05T15:01:30.000Z', price: '20996' }),
          expect.objectContaining({ time: '2025-03-05T15:04:10.000Z', side: 'Sell' }),
          expect.objectContaining({ time: '2025-03-05T15:04:10.000Z', side: 'Sell' }),
          expect.objectContaining({ time: '2025-03-05T15:06:00.000Z', side: 'Buy', price: '21008' }),
        ],
      },
    ]);
    const refused = await uploadBars(alice, june);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'contradicts-fills' });
    expect(refused.body.error).toMatch(
      /^MNQH5: 5 of your 5 fills with a bar in this file lie outside their minute's range by more than a tick \(first: Buy 1 at 21000 on Mar 5 10:00:30 \(bar 21246-21253\)/,
    );
    expect(await rows(sql`select 1 from price_bars where contract = 'MNQH5'`)).toEqual([]);
    // A bar off by a tick is not a contradiction: feeds differ by that much.
    const tickOff = tradingViewBars((minute, ohlc) => (minute === '10:00' ? [21000.25, 21003.25, 20999.75, 21002.25] : ohlc));
    expect((await previewBars(alice, tickOff)).body.contradictions).toEqual([]);
    const insisted = await uploadBars(alice, june, { insist: 'true' });
    expect(insisted.status).toBe(200);
    expect(insisted.body).toMatchObject({ added: 81, contradictions: [{ contract: 'MNQH5', fills_outside: 5 }] });
    expect((await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toMatchObject({ deleted: 81 });
  });

  it("the Trade Log carries each trade's stored MAE and MFE, in R where it has a planned risk, and sorts by them on the server", async () => {
    const manual = await createTrade(alice, { date: '2025-03-05', symbol: 'MNQH5', pnl: 5, account_id: aliceAccount.id });
    expect((await uploadBars(alice, tradingViewBars())).body).toMatchObject({ added: 81, trades_updated: 2 });
    const [long, short] = await tradesOf(alice, `account=${aliceAccount.id}`);
    // The long's figures as the bars' test above: MAE $16, MFE $68. A planned risk of $32 makes them -0.5R and 2.125R.
    expect((await alice.patch(`/api/trades/${long!.id}`, { risk_amount: '32' })).status).toBe(200);
    const listed = new Map(((await alice.get(`/api/trades?account=${aliceAccount.id}&limit=50`)).body.trades as TradeDto[]).map((t) => [t.id, t]));
    expect(listed.get(long!.id)).toMatchObject({ mae: '16.00', mfe: '68.00', mae_r: -0.5, mfe_r: 2.125 });
    // The short has no planned risk: dollars only, the same its chart computes from the same bars.
    const chart = (await alice.get(`/api/market/trades/${short!.id}/chart`)).body.excursions;
    expect(listed.get(short!.id)).toMatchObject({ mae: chart.mae.dollars, mfe: chart.mfe.dollars, mae_r: null, mfe_r: null });
    // A trade no bars cover (a manual trade without times) has none, and a single trade's answer carries them too.
    expect(listed.get(manual.id)).toMatchObject({ mae: null, mfe: null, mae_r: null, mfe_r: null });
    expect((await alice.get(`/api/trades/${long!.id}`)).body).toMatchObject({ mae: '16.00', mfe: '68.00', mae_r: -0.5 });
    // Its page's exit analysis in R too: MAE, MFE, the best exit ($68), and a minute later ($53.92 net, $8.00 more).
    const inR = (await alice.get(`/api/market/trades/${long!.id}/chart`)).body.excursions;
    expect(inR).toMatchObject({
      mae: { dollars: '16.00', r: '0.50' },
      mfe: { dollars: '68.00', r: '2.13' },
      best_exit: { gross_pnl: '68.00', r: '2.13' },
    });
    expect(inR.exit_after[0]).toMatchObject({
      minutes: 1,
      status: 'ok',
      net_pnl: '53.92',
      net_pnl_r: '1.69',
      difference: '8.00',
      difference_r: '0.25',
    });
    expect(chart).toMatchObject({ mae: { r: null }, best_exit: { r: null } });
    const shortAfter = chart.exit_after.filter((a: { status: string }) => a.status === 'ok') as Array<{
      net_pnl_r: string | null;
      difference_r: string | null;
    }>;
    expect(shortAfter.length).toBeGreaterThan(0);
    expect(shortAfter.flatMap((a) => [a.net_pnl_r, a.difference_r]).every((r) => r === null)).toBe(true);

    for (const sort of ['mae', 'mfe'] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const measured = [long!, short!].map((t) => listed.get(t.id)!).sort((a, b) => (Number(a[sort]) - Number(b[sort])) * (dir === 'asc' ? 1 : -1));
        const expected = [...measured.map((t) => t.id), manual.id];
        const page = await alice.get(`/api/trades?account=${aliceAccount.id}&sort=${sort}&dir=${dir}&limit=50`);
        expect(
          page.body.trades.map((t: TradeDto) => t.id),
          `${sort} ${dir}`,
        ).toEqual(expected);
        // One trade a page, by cursor: the same order.
        const walked: string[] = [];
        let cursor: string | null = null;
        do {
          const res: { body: { trades: TradeDto[]; next_cursor: string | null } } = await alice.get(
            `/api/trades?account=${aliceAccount.id}&sort=${sort}&dir=${dir}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          );
          walked.push(...res.body.trades.map((t) => t.id));
          cursor = res.body.next_cursor;
        } while (cursor && walked.length < 10);
        expect(walked, `${sort} ${dir} by cursor`).toEqual(expected);
      }
    }
    // Bob's list has none of Alice's figures, and sorting his by MAE shows only his.
    const bobs = (await bob.get('/api/trades?sort=mae&dir=desc&limit=50')).body.trades as TradeDto[];
    expect(bobs.map((t) => t.id)).not.toContain(long!.id);
    await alice.patch(`/api/trades/${long!.id}`, { risk_amount: null });
    await alice.delete(`/api/trades/${manual.id}`);
    expect((await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toMatchObject({ deleted: 81 });
  });

  it('says which bars are missing when the bars around a trade have a gap, and computes nothing', async () => {
    // 10:00 to 10:04 New York gone: no bar overlaps Alice's long (10:00:30 to 10:04:10).
    const gap = tradingViewBars()
      .split('\n')
      .filter((line) => {
        const t = Number(line.split(',')[0]) * 1000;
        return !(t >= Date.UTC(2025, 2, 5, 15, 0) && t <= Date.UTC(2025, 2, 5, 15, 4));
      });
    expect((await uploadBars(alice, gap.join('\n'))).body).toMatchObject({ added: 76 });
    const [long] = await tradesOf(alice, `account=${aliceAccount.id}`);
    const chart = await alice.get(`/api/market/trades/${long!.id}/chart`);
    expect(chart.body.excursions).toMatchObject({
      status: 'missing',
      contract: 'MNQH5',
      resolution: 60,
      missing: [{ from: '2025-03-05T15:00:30.000Z', to: '2025-03-05T15:04:10.000Z' }],
    });
    const row = await rows<{ status: string; mae: string | null }>(sql`select status, mae from trade_excursions where trade_id = ${long!.id}`);
    expect(row).toEqual([{ status: 'missing', mae: null }]);
    await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05');
  });

  it('a hole of one or three minutes is never computed over: the figures read incomplete and name the minutes, on the chart and in the Trade Log; a confirmed quiet upload fills it and says so', async () => {
    const without = (...minutes: string[]) =>
      tradingViewBars()
        .split('\n')
        .filter((line) => {
          const t = Number(line.split(',')[0]) * 1000;
          const local = new Date(t - 5 * 3_600_000);
          return !minutes.includes(`${local.getUTCHours()}:${String(local.getUTCMinutes()).padStart(2, '0')}`);
        })
        .join('\n');
    const [long, short] = await tradesOf(alice, `account=${aliceAccount.id}`);

    // 10:05 gone: the long (10:00:30 to 10:04:10) is measured, but a minute after its exit has no price, not 10:04's.
    expect((await uploadBars(alice, without('10:05'))).body).toMatchObject({ added: 80 });
    const chart = (await alice.get(`/api/market/trades/${long!.id}/chart?padding=5`)).body;
    expect(chart.excursions).toMatchObject({ status: 'complete', mae: { dollars: '16.00' } });
    expect(chart.excursions.exit_after[0]).toEqual({ minutes: 1, status: 'missing', minute: '2025-03-05T15:05:00.000Z' });
    expect(chart.excursions.exit_after[1]).toMatchObject({ minutes: 5, status: 'ok' });
    expect(chart.holes).toEqual([{ from: '2025-03-05T15:05:00.000Z', to: '2025-03-05T15:06:00.000Z' }]);
    // The short (10:04:10 to 10:06:00) has the hole inside it: incomplete, in the Trade Log too.
    const listed = new Map(((await alice.get(`/api/trades?account=${aliceAccount.id}&limit=50`)).body.trades as TradeDto[]).map((t) => [t.id, t]));
    expect(listed.get(short!.id)).toMatchObject({
      mae: null,
      mfe: null,
      excursion_missing: [{ from: '2025-03-05T15:05:00.000Z', to: '2025-03-05T15:06:00.000Z' }],
    });
    expect(listed.get(long!.id)).toMatchObject({ mae: '16.00', excursion_missing: null });
    await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05');

    // 10:01 to 10:03 gone: the long's figures are not computed, and the minutes are named.
    expect((await uploadBars(alice, without('10:01', '10:02', '10:03'))).body).toMatchObject({ added: 78 });
    expect((await alice.get(`/api/market/trades/${long!.id}/chart`)).body.excursions).toMatchObject({
      status: 'missing',
      missing: [{ from: '2025-03-05T15:01:00.000Z', to: '2025-03-05T15:04:00.000Z' }],
    });
    expect(((await alice.get(`/api/trades/${long!.id}`)).body as TradeDto).excursion_missing).toEqual([
      { from: '2025-03-05T15:01:00.000Z', to: '2025-03-05T15:04:00.000Z' },
    ]);

    // The trader confirms the file's source leaves out minutes without trades: the same bars, now vouched for.
    const quiet = await uploadBars(alice, without('10:01', '10:02', '10:03'), { quiet_minutes: 'true' });
    expect(quiet.body).toMatchObject({ added: 0, unchanged: 78, quiet_minutes: true });
    expect(quiet.body.trades_updated).toBeGreaterThan(0);
    const vouched = (await alice.get(`/api/market/trades/${long!.id}/chart`)).body.excursions;
    expect(vouched).toMatchObject({ status: 'complete', quiet_minutes: 3, sources: [{ id: 'upload', label: 'your uploads' }] });
    expect((await alice.get(`/api/trades/${long!.id}`)).body).toMatchObject({ excursion_missing: null, mae: vouched.mae.dollars });
    expect((await alice.delete('/api/market/bars?contract=MNQH5&resolution=60&day=2025-03-05')).body).toMatchObject({ deleted: 78 });
  });

  it('takes a bar file larger than a JSON body (a day of 1-second bars), and deletes it by its resolution', async () => {
    // 30,000 1-second bars of MESH5 (~1.3 MB: past the 1 MB every JSON body is held to).
    const lines = ['time,open,high,low,close,Volume'];
    for (let i = 0; i < 30_000; i++) lines.push(`${Date.UTC(2025, 2, 6, 14, 30) / 1000 + i},5900.25,5901.50,5899.75,5900.75,${i % 50}`);
    const csv = `${lines.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const uploaded = await sendFile(alice, '/api/market/bars', { contract: 'MESH5' }, csv);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ added: 30_000 });
    expect((await alice.delete('/api/market/bars?contract=MESH5&resolution=1&day=2025-03-06')).body).toMatchObject({ deleted: 30_000, kept: 0 });
  });

  it('a bad row deep inside a large bar file is named by its row, and nothing of the file is stored unless the trader skips it; the preview stays small', async () => {
    // NinjaTrader's export (no header: row n is line n), 60,000 1-minute bars of MESM5: three batches of the reader.
    const pad = (n: number) => String(n).padStart(2, '0');
    const line = (i: number) => {
      const d = new Date(Date.UTC(2025, 3, 1) + i * 60_000);
      const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
      return `${stamp};5600.25;5601.50;5599.75;5600.75;${i % 90}`;
    };
    const lines = Array.from({ length: 60_000 }, (_, i) => line(i));
    lines[45_000] = lines[45_000]!.replace('5601.50', 'high'); // row 45,001
    lines[59_989] = '20250442 1000;1;2;3'; // row 59,990
    const csv = `${lines.join('\n')}\n`;
    const query = { contract: 'MESM5', time_zone: 'America/New_York' };
    const stored = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from price_bars where contract = 'MESM5'`))[0]!.n;

    const preview = await previewBars(alice, csv, query);
    expect(preview.status, JSON.stringify(preview.body).slice(0, 500)).toBe(200);
    expect(preview.body).toMatchObject({ row_count: 60_000, unreadable_rows: 2, series: [{ contract: 'MESM5', bars: 59_998 }] });
    expect(preview.body.issues.filter((i: { severity: string }) => i.severity === 'error').map((i: { row: number }) => i.row)).toEqual([
      45_001, 59_990,
    ]);

    const refused = await uploadBars(alice, csv, query);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'unreadable-rows', unreadable_rows: 2 });
    expect(refused.body.error).toMatch(/^2 rows of the file could not be read \(first: row 45001: /);
    expect(await stored()).toBe(0);

    // Past the first thousand, three rows in four unreadable (and row 45,001): counted all, the first thousand named.
    const noisy = `${lines.map((l, i) => (i < 1_000 || i % 4 === 0 ? l : l.replace(/;[^;]*$/, ';x;y'))).join('\n')}\n`;
    const bounded = await previewBars(alice, noisy, query);
    expect(bounded.status).toBe(200);
    expect(bounded.body.unreadable_rows).toBe(44_251);
    expect(bounded.body.issues.length).toBeLessThanOrEqual(1_000);
    expect(JSON.stringify(bounded.body).length).toBeLessThan(200_000);
    expect(await stored()).toBe(0);

    const skipped = await uploadBars(alice, csv, { ...query, skip_unreadable: 'true' });
    expect(skipped.status, JSON.stringify(skipped.body).slice(0, 500)).toBe(200);
    expect(skipped.body).toMatchObject({ added: 59_998, skipped_rows: 2 });
    expect(await stored()).toBe(59_998);
    await app.server.database.db.execute(sql`delete from price_bars where contract = 'MESM5'`);
  });

  it("reads a bar file at its turn at the imports' parse gate: while the budget is taken its preview and upload wait, and the queue says so", async () => {
    // Another upload holds the whole 20 MB budget (the upload gate, which trade files and backups pass too).
    const held = await enterParseGate('another trader', 20 * 1024 * 1024);
    const csv = tradingViewBars();
    const previewed = previewBars(bob, csv, { contract: 'MNQM5' });
    const uploaded = uploadBars(bob, csv, { contract: 'MNQM5' });
    let queue = { waiting: 0, ahead: 0 };
    for (let i = 0; i < 200 && queue.waiting < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      queue = (await bob.get('/api/imports/queue')).body;
    }
    expect(queue).toEqual({ waiting: 2, ahead: 1 });
    // Waiting, not read: nothing stored yet.
    expect(await rows(sql`select 1 from price_bars where contract = 'MNQM5'`)).toEqual([]);
    held.release();
    const [preview, upload] = await Promise.all([previewed, uploaded]);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.series).toMatchObject([{ contract: 'MNQM5', bars: 81 }]);
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body).toMatchObject({ added: 81 });
    expect((await bob.get('/api/imports/queue')).body).toEqual({ waiting: 0, ahead: 0 });
    // A refused file gives its turn back too: a bad layout is a 400, and the next upload goes straight in.
    const refused = await uploadBars(bob, 'a,b\n1,2\n', { contract: 'MNQM5' });
    expect(refused.status).toBe(400);
    const next = await enterParseGate('another trader', 20 * 1024 * 1024);
    next.release();
    expect((await bob.delete('/api/market/bars?contract=MNQM5&resolution=60&day=2025-03-05')).body).toMatchObject({ deleted: 81 });
  });

  it('the JSON backup carries the fills: restored with their trades, once', async () => {
    const backup = await alice.get('/api/trades/export');
    const withFills = (backup.body as Array<{ id: string; fills: unknown[] }>).filter((t) => t.fills.length > 0);
    expect(withFills.map((t) => t.fills.length).sort()).toEqual([2, 3]);
    const target = await createAccount(alice, 'Restored');
    const restored = await alice.post('/api/trades/import', { account_id: target.id, trades: withFills });
    expect(restored.body).toEqual({ imported: 2, skipped: 0 });
    const fillsOf = async (trades: Array<{ id: string }>) =>
      Promise.all(trades.map(async (t) => (await alice.get(`/api/trades/${t.id}/fills`)).body.fills));
    const copies = await tradesOf(alice, `account=${target.id}`);
    const originals = await tradesOf(alice, `account=${aliceAccount.id}`);
    expect(originals).toHaveLength(2);
    expect(await fillsOf(copies)).toEqual(await fillsOf(originals));
    expect((await alice.post('/api/trades/import', { account_id: target.id, trades: withFills })).body).toEqual({ imported: 0, skipped: 2 });
    const count = await rows<{ n: number }>(
      sql`select count(*)::int as n from trade_fills where trade_id in (${sql.join(
        copies.map((t) => sql`${t.id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(count[0]!.n).toBe(5);
    // A bad fill is a 400 naming the row and the fill.
    const bad = await alice.post('/api/trades/import', {
      account_id: target.id,
      trades: [{ ...withFills[0], id: 'new', fills: [{ time: '2025-03-05T15:00:00Z', side: 'Hold', quantity: 1, price: 1 }] }],
    });
    expect([bad.status, bad.body.error]).toEqual([400, 'Row 1: fills.0.side: must be Buy or Sell']);
  });
});
