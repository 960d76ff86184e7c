import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerConnections, fundingPayments } from '../../src/server/db/schema';
import { backends, type ApiClient } from '../support/app';
import { binanceFunding, binanceRoundTrip, type BinanceIncome, type BinanceTrade } from '../support/binance-server';
import { createAccount, createTrade, listAll, type TradeDto } from './trades-support';
import {
  BINANCE_KEY,
  BINANCE_SECRET,
  BOB_BINANCE_KEY,
  BOB_BINANCE_SECRET,
  dayOfMs,
  SECRETS,
  startExchangeApp,
  syncExchange,
  utcDaysAgo,
  type ExchangeApp,
} from './exchanges-support';

/**
 * Binance USD-M futures connected by a read-only API key, against the stand-in written from Binance's documentation
 * (tests/support/binance-server.ts), on both databases: the key checked and kept sealed, never answered or logged;
 * one-way and hedge-mode round trips in USDT to the cent; funding counted in the trade open when it was paid; fees in
 * BNB kept apart; figures never adding USDT to USD; one trader's connection invisible to another.
 */
const HOUR = 3_600_000;
const MINUTE = 60_000;

describe.each(backends())('Binance USD-M connections on %s', (backend) => {
  let ctx: ExchangeApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let futures: { id: string };
  let usdt: { id: string };

  const add = (...parts: Array<{ trades: BinanceTrade[]; income: BinanceIncome[] }>) => {
    for (const part of parts) {
      ctx.binance.trades.push(...part.trades);
      ctx.binance.income.push(...part.income);
    }
  };
  const A = utcDaysAgo(3, 13);
  const B = utcDaysAgo(2, 15);

  beforeAll(async () => {
    ctx = await startExchangeApp(backend);
    [alice, bob] = await Promise.all([ctx.trader('alice'), ctx.trader('bob')]);
    ctx.binance.balances.push({ account: 'alice', asset: 'USDT', balance: '5123.456789' }, { account: 'alice', asset: 'USDC', balance: '250' });
    add(
      // One-way mode: a long of 0.015 BTC in two buys, closed by one sell; funding paid at 16:00 UTC while it was open.
      binanceRoundTrip('alice', 'BTCUSDT', {
        side: 'Long',
        entries: [
          ['0.010', '60000', A],
          ['0.005', '60300', A + 10 * MINUTE],
        ],
        exits: [['0.015', '60500', A + 4 * HOUR]],
      }),
      // Hedge mode: a long and a short of ETH open at once; the long closed in two parts.
      binanceRoundTrip('alice', 'ETHUSDT', {
        side: 'Long',
        positionSide: 'LONG',
        entries: [['1', '3000', B]],
        exits: [
          ['0.4', '3050', B + 30 * MINUTE],
          ['0.6', '3100', B + 2 * HOUR],
        ],
      }),
      binanceRoundTrip('alice', 'ETHUSDT', {
        side: 'Short',
        positionSide: 'SHORT',
        entries: [['2', '3010', B + 5 * MINUTE]],
        exits: [['2', '2990', B + 70 * MINUTE]],
      }),
      // Fees in BNB.
      binanceRoundTrip('alice', 'SOLUSDT', {
        side: 'Long',
        feeAsset: 'BNB',
        entries: [['10', '150', B + 3 * HOUR]],
        exits: [['10', '155', B + 4 * HOUR]],
      }),
      // The USDC account's own trade.
      binanceRoundTrip('alice', 'ETHUSDC', { side: 'Long', entries: [['1', '3000', B + 5 * HOUR]], exits: [['1', '3020', B + 6 * HOUR]] }),
    );
    // A close of a position opened before the synced days: no trade of it.
    const orphan = binanceRoundTrip('alice', 'BTCUSDT', {
      side: 'Long',
      entries: [['0.002', '59000', utcDaysAgo(40)]],
      exits: [['0.002', '59500', utcDaysAgo(4, 15)]],
    });
    ctx.binance.trades.push(orphan.trades[1]!);
    ctx.binance.income.push(...orphan.income.slice(1));
    ctx.binance.income.push(
      binanceFunding('alice', 'BTCUSDT', '-0.07312345', A + 3 * HOUR),
      // 16:00 UTC on day B: the ETH long and short are both open, and Binance does not say which paid.
      binanceFunding('alice', 'ETHUSDT', '0.11', B + HOUR),
    );
  });

  afterAll(async () => {
    // Whatever happened above, no key or secret reached an answer or a log line.
    const answers = ctx.answers.join('\n');
    const logs = JSON.stringify(ctx.app.logs);
    for (const secret of SECRETS) {
      expect(answers).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    await ctx?.close();
  });

  const byName = (connection: { accounts: Array<{ name: string; id: string }> }, name: string) => connection.accounts.find((a) => a.name === name)!;

  it('checks the key with Binance before keeping it: a wrong secret and a key that may withdraw are refused in words', async () => {
    const wrong = await alice.post('/api/connections/test', { provider: 'binance', api_key: BINANCE_KEY, api_secret: 'not-the-secret' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      code: 'broker-credentials',
      error:
        'Binance did not accept the signature: the secret key does not belong to this API key. Copy both again from Binance (API Management), then connect again.',
      fields: [{ field: 'api_key' }, { field: 'api_secret' }],
    });
    const withdrawing = await alice.post('/api/connections/test', {
      provider: 'binance',
      api_key: 'withdrawing-key-0000000000000000000000000000000000000000000000001',
      api_secret: 'withdrawing-secret',
    });
    expect(withdrawing.status).toBe(400);
    expect(withdrawing.body.error).toContain('may withdraw or transfer funds, so Edgebook refuses it');
    const trading = await alice.post('/api/connections/test', {
      provider: 'binance',
      api_key: 'trading-key-000000000000000000000000000000000000000000000000000002',
      api_secret: 'trading-secret',
    });
    expect(trading.status).toBe(200);
    expect(trading.body.key_warning).toContain('This key may also trade');
    // The fields a Binance connection takes, and no others.
    expect((await alice.post('/api/connections/test', { provider: 'binance', api_key: BINANCE_KEY })).body.error).toBe('api_secret: is required');
    expect(
      (await alice.post('/api/connections/test', { provider: 'binance', user_name: 'alice', api_key: BINANCE_KEY, api_secret: BINANCE_SECRET })).body
        .error,
    ).toBe('user_name: is not used to connect binance');

    const test = await alice.post('/api/connections/test', { provider: 'binance', api_key: BINANCE_KEY, api_secret: BINANCE_SECRET });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({
      ok: true,
      provider: 'binance',
      key_warning: null,
      accounts: [
        { external_id: 'USDT', name: 'USD-M futures · USDT', balance: '5123.46', can_trade: true, active: true, currency: 'USDT' },
        { external_id: 'USDC', name: 'USD-M futures · USDC', balance: '250.00', can_trade: true, active: true, currency: 'USDC' },
      ],
    });
    expect((await alice.get('/api/connections')).body.connections).toEqual([]);
  });

  it('connects, keeps key and secret only sealed and the login only as a digest, and never answers them', async () => {
    const res = await alice.post('/api/connections', { provider: 'binance', api_key: BINANCE_KEY, api_secret: BINANCE_SECRET });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      provider: 'binance',
      provider_label: 'Binance',
      credential: 'key-secret',
      user_name: 'API key ending in 7f3a',
      key_warning: null,
      status: 'connected',
    });
    // An exchange is its own firm; a ProjectX firm named for it is refused. Its klines are kept under its own source.
    expect(res.body.firm).toBe('binance');
    const withFirm = await alice.post('/api/connections', {
      provider: 'binance',
      firm: 'topstepx',
      api_key: BINANCE_KEY,
      api_secret: BINANCE_SECRET,
    });
    expect(withFirm.status).toBe(400);
    expect(res.body.accounts.map((a: { name: string; currency: string; balance: string }) => [a.name, a.currency, a.balance])).toEqual([
      ['USD-M futures · USDC', 'USDC', '250.00'],
      ['USD-M futures · USDT', 'USDT', '5123.46'],
    ]);
    const again = await alice.post('/api/connections', { provider: 'binance', api_key: BINANCE_KEY, api_secret: BINANCE_SECRET });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Binance API key ending in 7f3a is connected already: replace its API key there instead.');

    const [row] = await ctx.app.server.database.db.select().from(brokerConnections).where(eq(brokerConnections.id, res.body.id));
    expect(row!.userName).toMatch(/^key:[0-9a-f]{32}$/);
    expect(row!.barSource).toMatch(/^binance:/);
    for (const secret of [BINANCE_KEY, BINANCE_SECRET]) {
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(JSON.stringify(row)).not.toContain(secret.slice(0, 24));
    }
    const exported = await alice.get('/api/account/export');
    expect(JSON.stringify(exported.body)).not.toContain(row!.secret);
  });

  it('syncs one-way and hedge-mode trips in USDT to the cent, funding counted in the trade open when paid, BNB fees apart', async () => {
    futures = await createAccount(alice, 'Futures');
    await createTrade(alice, { account_id: futures.id, symbol: 'NQ', pnl: '100.00', date: dayOfMs(A) });
    usdt = await createAccount(alice, 'Binance USDT');
    const [connection] = (await alice.get('/api/connections')).body.connections;
    const mapped = await alice.patch(`/api/connections/${connection.id}/broker-accounts/${byName(connection, 'USD-M futures · USDT').id}`, {
      account_id: usdt.id,
      sync_from: dayOfMs(utcDaysAgo(4)),
    });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    // The trading account takes the currency of what it receives.
    expect((await alice.get('/api/accounts')).body.find((a: { id: string }) => a.id === usdt.id).currency).toBe('USDT');

    const done = await syncExchange(ctx, alice, connection.id);
    expect(done.last_outcome, JSON.stringify(done.last_outcome)).toMatchObject({
      status: 'ok',
      added: 4,
      duplicates: 0,
      open_positions: 0,
      funding: 2,
      message: null,
    });
    expect(done.last_outcome.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('1 fill of USD-M futures · USDT closed positions opened before'),
        'Fees of 1 trade of USD-M futures · USDT were charged in another asset (0.001525 BNB): they are kept with the fills and not counted in its USDT P&L, as Edgebook does not convert between assets.',
        expect.stringContaining('1 funding payment of USD-M futures · USDT (0.11 USDT) counts in no trade yet'),
      ]),
    );

    const trades = await listAll(alice, `account=${usdt.id}`);
    const view = (t: TradeDto) => [
      t.contract,
      t.symbol,
      t.side,
      t.quantity,
      t.entry_price,
      t.exit_price,
      t.gross_pnl,
      t.commission,
      t.funding,
      t.pnl,
      t.status,
      t.import_source,
    ];
    expect(trades.map(view).sort()).toEqual(
      [
        // 0.015 x 60500 - (0.010 x 60000 + 0.005 x 60300) = 6.00; fees 0.24 + 0.1206 + 0.363 = 0.7236; funding -0.07312345.
        ['BINANCE:BTCUSDT.P', 'BTC', 'Long', '0.01500000', '60100.00000000', '60500.00000000', '6.00', '0.72', '-0.07', '5.21', 'Win', 'binance-api'],
        ['BINANCE:ETHUSDT.P', 'ETH', 'Long', '1.00000000', '3000.00000000', '3080.00000000', '80.00', '2.43', null, '77.57', 'Win', 'binance-api'],
        ['BINANCE:ETHUSDT.P', 'ETH', 'Short', '2.00000000', '3010.00000000', '2990.00000000', '40.00', '4.80', null, '35.20', 'Win', 'binance-api'],
        ['BINANCE:SOLUSDT.P', 'SOL', 'Long', '10.00000000', '150.00000000', '155.00000000', '50.00', '0.00', null, '50.00', 'Win', 'binance-api'],
      ].sort(),
    );
    // Each payment an entry of its own: the BTC one counted in the BTC trade, the ETH one (two trades open) in none.
    const btc = trades.find((t) => t.symbol === 'BTC')!;
    const payments = await ctx.app.server.database.db.select().from(fundingPayments);
    expect(payments.map((p) => [p.contract, p.amount, p.asset, p.tradeId]).sort()).toEqual([
      ['BINANCE:BTCUSDT.P', '-0.07312345', 'USDT', btc.id],
      ['BINANCE:ETHUSDT.P', '0.11000000', 'USDT', null],
    ]);

    // Again: nothing new, nothing twice, the funding counted once.
    const again = await syncExchange(ctx, alice, connection.id);
    expect(again.last_outcome).toMatchObject({ status: 'ok', added: 0 });
    expect((await listAll(alice, `account=${usdt.id}`)).map(view).sort()).toEqual(trades.map(view).sort());

    // Minutes ago (after that sync read), a new trip: only it is added, from where the last sync stopped.
    const recent = Date.now() - 4 * MINUTE;
    add(binanceRoundTrip('alice', 'BTCUSDT', { side: 'Short', entries: [['0.001', '61000', recent]], exits: [['0.001', '60900', recent + MINUTE]] }));
    const later = await syncExchange(ctx, alice, connection.id);
    expect(later.last_outcome).toMatchObject({ status: 'ok', added: 1 });
    expect(await listAll(alice, `account=${usdt.id}`)).toHaveLength(5);
  });

  it("never adds USDT to USD: every-account figures are the USD accounts' and say so; the USDT account's are in USDT", async () => {
    const all = await alice.get('/api/reports/overview');
    expect(all.status).toBe(200);
    expect(all.body.basis.currency).toBe('USD');
    expect(all.body.overview.netCents).toBe(10_000);
    expect(all.body.basis.currencyNote).toContain('Binance USDT (USDT) is left out');
    const binance = await alice.get(`/api/reports/overview?account=${usdt.id}`);
    expect(binance.body.basis).toMatchObject({ currency: 'USDT', currencyNote: null });
    // 5.21 + 77.57 + 35.20 + 50.00 and the later short: 0.1 - fees 0.0488 = 0.05.
    expect(binance.body.overview.netCents).toBe(521 + 7757 + 3520 + 5000 + 5);
    const mixed = await alice.get(`/api/reports/overview?account=${futures.id}&account=${usdt.id}`);
    expect([mixed.body.basis.currency, mixed.body.overview.netCents]).toEqual(['USD', 10_000]);
  });

  it("another trader's connection is not theirs; a revoked key stops the sync with words and asks for a new one", async () => {
    const [aliceConnection] = (await alice.get('/api/connections')).body.connections;
    expect((await bob.get(`/api/connections/${aliceConnection.id}`)).status).toBe(404);
    expect((await bob.post(`/api/connections/${aliceConnection.id}/sync`)).status).toBe(404);

    const bobs = await bob.post('/api/connections', { provider: 'binance', api_key: BOB_BINANCE_KEY, api_secret: BOB_BINANCE_SECRET });
    expect(bobs.status, JSON.stringify(bobs.body)).toBe(201);
    // Alice's key is hers: connecting it again under bob is his own connection of it, with none of her accounts' data.
    const journal = await createAccount(bob, 'Bob USDT');
    const usdtAccount = bobs.body.accounts.find((a: { external_id: string }) => a.external_id === 'USDT');
    await bob.patch(`/api/connections/${bobs.body.id}/broker-accounts/${usdtAccount.id}`, {
      account_id: journal.id,
      sync_from: dayOfMs(utcDaysAgo(4)),
    });
    const synced = await syncExchange(ctx, bob, bobs.body.id);
    expect(synced.last_outcome).toMatchObject({ status: 'ok', added: 0 });
    expect(await listAll(bob)).toEqual([]);

    // Bob deletes his key at Binance.
    ctx.binance.keys.splice(
      ctx.binance.keys.findIndex((k) => k.apiKey === BOB_BINANCE_KEY),
      1,
    );
    const failed = await syncExchange(ctx, bob, bobs.body.id);
    expect(failed.status).toBe('error');
    expect(failed.last_outcome.status).toBe('error');
    expect(failed.last_outcome.message).toContain('Binance refused this API key');
    expect(failed.last_outcome.message).toContain('Nothing was stored.');
  });
});
