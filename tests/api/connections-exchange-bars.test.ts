import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type ApiClient } from '../support/app';
import { binanceKlines, binanceRoundTrip } from '../support/binance-server';
import { createAccount, listAll } from './trades-support';
import { BINANCE_KEY, BINANCE_SECRET, dayOfMs, startExchangeApp, syncExchange, utcDaysAgo, type ExchangeApp } from './exchanges-support';

/**
 * After a sync, each exchange's own public one-minute klines give the synced trades their bars, MAE and MFE, under the
 * journal's contract of that exchange, kept as that exchange's provider bars (never as the trader's own uploads); a
 * trade whose minutes the exchange has no klines for gets none, and nothing is estimated for it.
 */
const MINUTE = 60_000;

describe.each(backends())('bars of an exchange connection on %s', (backend) => {
  let ctx: ExchangeApp;
  let alice: ApiClient;

  beforeAll(async () => {
    ctx = await startExchangeApp(backend);
    alice = await ctx.trader('alice');
  });
  afterAll(async () => ctx?.close());

  it("stores Binance's klines for the trades' minutes, measures MAE and MFE from them, and estimates none without", async () => {
    const A = utcDaysAgo(3, 14);
    const btc = binanceRoundTrip('alice', 'BTCUSDT', { side: 'Long', entries: [['0.1', '60000', A]], exits: [['0.1', '60010', A + 10 * MINUTE]] });
    // ETH traded too, but Binance gives no klines for those minutes.
    const eth = binanceRoundTrip('alice', 'ETHUSDT', {
      side: 'Long',
      entries: [['1', '3000', A + 60 * MINUTE]],
      exits: [['1', '3001', A + 70 * MINUTE]],
    });
    for (const trip of [btc, eth]) {
      ctx.binance.trades.push(...trip.trades);
      ctx.binance.income.push(...trip.income);
    }
    // Klines around the BTC trade: each minute trades from 59,980 to 60,020.
    ctx.binance.klines.set('BTCUSDT', binanceKlines(A - 10 * MINUTE, 30, 60_000));
    const journal = await createAccount(alice, 'Binance');
    const connected = await alice.post('/api/connections', { provider: 'binance', api_key: BINANCE_KEY, api_secret: BINANCE_SECRET });
    const usdt = connected.body.accounts.find((a: { external_id: string }) => a.external_id === 'USDT');
    await alice.patch(`/api/connections/${connected.body.id}/broker-accounts/${usdt.id}`, {
      account_id: journal.id,
      sync_from: dayOfMs(utcDaysAgo(4)),
    });
    const done = await syncExchange(ctx, alice, connected.body.id);
    // The BTC trade's minutes, five either side: 21 bars.
    expect(done.last_outcome).toMatchObject({ status: 'ok', added: 2, bars: 21 });
    const klineCalls = ctx.binance.calls.filter((c) => c.path === '/fapi/v1/klines');
    expect(new Set(klineCalls.map((c) => c.params.symbol))).toEqual(new Set(['BTCUSDT', 'ETHUSDT']));

    const trades = await listAll(alice, `account=${journal.id}`);
    const btcTrade = trades.find((t) => t.symbol === 'BTC')!;
    // 0.1 BTC: 20 points against and for it within its minutes = 2.00 USDT each way.
    expect([btcTrade.mae, btcTrade.mfe]).toEqual(['2.00', '2.00']);
    const ethTrade = trades.find((t) => t.symbol === 'ETH')!;
    expect([ethTrade.mae, ethTrade.mfe]).toEqual([null, null]);
    // Provider bars, kept under the exchange's source; none of them is the trader's own upload.
    const stored = await ctx.app.server.database.db.execute(`select distinct source, contract from provider_bars`);
    expect(
      (stored as unknown as { rows: Array<{ source: string; contract: string }> }).rows.map((r) => [r.source.split(':')[0], r.contract]),
    ).toEqual([['binance', 'BINANCE:BTCUSDT.P']]);
    const own = await ctx.app.server.database.db.execute(`select count(*)::int as n from price_bars`);
    expect((own as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });
});
