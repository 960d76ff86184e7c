import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type ApiClient } from '../support/app';
import type { StandInBar } from '../support/projectx-server';
import { importFile } from './imports-support';
import { createAccount } from './trades-support';
import {
  account,
  dayOf,
  KEY,
  MES,
  MNQ,
  plus,
  roundTrip,
  startConnectedApp,
  syncNow,
  topstepxExport,
  weekdayAgo,
  type ConnectedApp,
} from './connections-support';

/**
 * After a sync, the one-minute bars the replay of the connection's trades lacks come from History/retrieveBars, kept
 * under the gateway's source (readable by the traders connected to it, no trader's upload), a few minutes either side
 * of each trade, one request for trades close together, none again for bars already there.
 */
describe.each(backends())('bars of broker connections on %s', (backend) => {
  let ctx: ConnectedApp;
  let alice: ApiClient;
  const day = weekdayAgo(4);

  /** A bar a minute from `from` for `minutes` minutes, rising a tick a minute from `price`. */
  const minuteBars = (from: Date, minutes: number, price: number): StandInBar[] =>
    Array.from({ length: minutes }, (_, i) => {
      const p = price + i * 0.25;
      return { t: plus(from, i), o: p, h: p + 1, l: p - 1, c: p + 0.25, v: 100 + i };
    });

  beforeAll(async () => {
    ctx = await startConnectedApp(backend);
    ctx.px.accounts = [account(3001, '50KTC-V2-3001', 'alice.px')];
    // The gateway has bars of the whole morning and afternoon of both contracts.
    ctx.px.bars = new Map([
      [MNQ.id, minuteBars(new Date(day.getTime() - 60 * 60_000), 8 * 60, 21_000)],
      [MES.id, minuteBars(new Date(day.getTime() - 60 * 60_000), 8 * 60, 5_900)],
    ]);
    alice = await ctx.trader('alice');
  });
  afterAll(async () => {
    expect(ctx.answers.join('\n')).not.toContain(KEY);
    expect(JSON.stringify(ctx.app.logs)).not.toContain(KEY);
    await ctx?.close();
  });

  const storedBars = async (contract: string) => {
    const result = (await ctx.app.server.database.db.execute(
      sql`select start, open::text as open, volume::text as volume, source from provider_bars where contract = ${contract} and resolution = 60 order by start`,
    )) as unknown as { rows: Array<{ start: string; open: string; volume: string; source: string }> };
    return result.rows.map((r) => ({ ...r, start: new Date(r.start).toISOString() }));
  };

  it("stores the bars each synced and imported trade's replay needs, joins close trades into one request, and asks for none again", async () => {
    // Two MNQ trades 20 minutes apart (one request), one three hours later (another).
    ctx.px.trades = [
      ...roundTrip(3001, MNQ, { side: 'Long', entries: [[1, 21_010, plus(day, 10, 12)]], exits: [[1, 21_020, plus(day, 14, 40)]] }),
      ...roundTrip(3001, MNQ, { side: 'Short', entries: [[2, 21_030, plus(day, 35, 5)]], exits: [[2, 21_025, plus(day, 41, 59)]] }),
      ...roundTrip(3001, MNQ, { side: 'Long', entries: [[1, 21_080, plus(day, 215, 30)]], exits: [[1, 21_090, plus(day, 230, 1)]] }),
    ];
    // An MES trade of the same trading account imported from TopstepX's CSV export: its bars come too.
    const journal = await createAccount(alice, 'Combine 3001');
    const csv = topstepxExport([
      { contract: 'MESM5', side: 'Long', size: 1, entry: [5_910, plus(day, 60)], exit: [5_912, plus(day, 66, 30)], fees: 0.74 },
    ]);
    expect((await importFile(alice, { account_id: journal.id, format: 'topstepx-trades' }, csv)).body).toMatchObject({ imported: 1 });

    const connection = (await alice.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).body;
    const mapped = await alice.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0].id}`, {
      account_id: journal.id,
      sync_from: dayOf(day),
    });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);

    const first = await syncNow(ctx, alice, connection.id);
    expect(first.last_outcome).toMatchObject({ status: 'ok', added: 3, warnings: [] });
    const mnq = await storedBars('MNQM5');
    // 5 minutes of context either side: 14:05-14:46 joined with 14:30 (the second trade) is one span, 17:30-17:55.
    const minutes = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => plus(day, from + i));
    expect(mnq.map((b) => b.start)).toEqual([...minutes(5, 46), ...minutes(210, 235)]);
    // The bar of 14:05 is the gateway's 65th of the day: 21,000 + 65 ticks, volume 165, kept under the gateway's source.
    expect([Number(mnq[0]!.open), Number(mnq[0]!.volume), mnq[0]!.source]).toEqual([21_016.25, 165, `projectx:${new URL(ctx.px.url).host}`]);
    // None of them is anyone's upload.
    expect(
      ((await ctx.app.server.database.db.execute(sql`select count(*)::int as n from price_bars`)) as unknown as { rows: Array<{ n: number }> })
        .rows[0]!.n,
    ).toBe(0);
    expect((await storedBars('MESM5')).map((b) => b.start)).toEqual(minutes(55, 71));
    expect(first.last_outcome.bars).toBe(mnq.length + 17);
    // One request per joined span: two of MNQ, one of MES.
    expect(ctx.px.count('History/retrieveBars')).toBe(3);

    // Every trade the provider's bars cover has its MAE and MFE stored, the same figures its chart computes from those bars. The first MNQ trade, long 1 at 21,010 from 14:10
    // to 14:14 out at 21,020: no bar goes below its entry (MAE 0) and its best is its own exit, 10 points ($20.00).
    const listed = (await alice.get('/api/trades?limit=50')).body.trades as Array<{ id: string; entry_time: string }>;
    expect(listed).toHaveLength(4);
    const stored = (await ctx.app.server.database.db.execute(
      sql`select trade_id, status, mae::text as mae, mfe::text as mfe from trade_excursions where trade_id in (${sql.join(
        listed.map((t) => sql`${t.id}::uuid`),
        sql`, `,
      )})`,
    )) as unknown as { rows: Array<{ trade_id: string; status: string; mae: string; mfe: string }> };
    expect(stored.rows).toHaveLength(4);
    for (const row of stored.rows) {
      const chart = (await alice.get(`/api/market/trades/${row.trade_id}/chart`)).body.excursions;
      expect([row.status, Number(row.mae), Number(row.mfe)]).toEqual(['complete', Number(chart.mae.dollars), Number(chart.mfe.dollars)]);
    }
    const firstMnq = listed.find((t) => t.entry_time === plus(day, 10, 12))!;
    expect(stored.rows.find((r) => r.trade_id === firstMnq.id)).toMatchObject({ mae: '0.00', mfe: '20.00' });

    // Nothing is missing now: a second sync asks for no bars, and stores none.
    const again = await syncNow(ctx, alice, connection.id);
    expect(again.last_outcome).toMatchObject({ status: 'ok', added: 0, bars: 0 });
    expect(ctx.px.count('History/retrieveBars')).toBe(3);
  });

  it('keeps the trades when the bars cannot be read, says so, and reads them at the next sync', async () => {
    const [connection] = (await alice.get('/api/connections')).body.connections;
    // A trade of the last minutes (the next sync reads on from where the last one stopped), and the gateway's bars of
    // the last half hour.
    const recent = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 4 * 60_000);
    ctx.px.trades.push(
      ...roundTrip(3001, MNQ, { side: 'Long', entries: [[1, 21_100, plus(recent, 0, 5)]], exits: [[1, 21_104, plus(recent, 2, 30)]] }),
    );
    ctx.px.bars.get(MNQ.id)!.push(...minuteBars(new Date(recent.getTime() - 26 * 60_000), 30, 21_090));
    // The gateway fails every attempt at bars (the connector tries four times).
    ctx.px.fail('History/retrieveBars', 503, 4);
    const failed = await syncNow(ctx, alice, connection.id);
    expect(failed.last_outcome).toMatchObject({ status: 'ok', added: 1, bars: 0 });
    expect(failed.last_outcome.warnings).toEqual([
      expect.stringMatching(/^The trades are saved, but their price bars could not be read: .+ The next sync tries again\.$/),
    ]);
    expect((await storedBars('MNQM5')).filter((b) => b.start >= plus(recent, -5))).toEqual([]);

    // The bars from five minutes before the entry to the last the gateway has (a minute after the exit's).
    const next = await syncNow(ctx, alice, connection.id);
    expect(next.last_outcome).toMatchObject({ status: 'ok', added: 0, bars: 9, warnings: [] });
    expect((await storedBars('MNQM5')).filter((b) => b.start >= plus(recent, -5)).map((b) => b.start)).toEqual(
      Array.from({ length: 9 }, (_, i) => plus(recent, -5 + i)),
    );
  });
});
