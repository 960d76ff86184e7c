import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type ApiClient } from '../support/app';
import { bybitFunding, bybitRoundTrip } from '../support/bybit-server';
import { hyperliquidFills } from '../support/hyperliquid-server';
import { createAccount, listAll, type TradeDto } from './trades-support';
import {
  ALICE_WALLET,
  BYBIT_KEY,
  BYBIT_SECRET,
  dayOfMs,
  SECRETS,
  startExchangeApp,
  syncExchange,
  utcDaysAgo,
  type ExchangeApp,
} from './exchanges-support';

/**
 * Bybit (a read-only key) and Hyperliquid (a wallet address) connected and synced against their stand-ins written from
 * their documentation: round trips in the settlement currency to the cent, a one-way reversal as two trades, funding
 * counted in its trade by the side the exchange names, and each trader's connections their own.
 */
const HOUR = 3_600_000;

describe.each(backends())('Bybit and Hyperliquid connections on %s', (backend) => {
  let ctx: ExchangeApp;
  let alice: ApiClient;
  let bob: ApiClient;
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
    t.import_source,
  ];

  beforeAll(async () => {
    ctx = await startExchangeApp(backend);
    [alice, bob] = await Promise.all([ctx.trader('alice'), ctx.trader('bob')]);
  });
  afterAll(async () => {
    const answers = ctx.answers.join('\n');
    const logs = JSON.stringify(ctx.app.logs);
    for (const secret of SECRETS) {
      expect(answers).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    await ctx?.close();
  });

  it('Bybit: a long with funding paid on its side, and a one-way reversal made two trades, fees exact', async () => {
    const A = utcDaysAgo(3, 13);
    const btc = bybitRoundTrip('alice', 'BTCUSDT', { side: 'Long', entries: [['0.01', '60000', A]], exits: [['0.01', '60600', A + 4 * HOUR]] });
    const long = bybitRoundTrip('alice', 'ETHUSDT', { side: 'Long', entries: [['1', '3000', A + 5 * HOUR]], exits: [] });
    const reversal = bybitRoundTrip('alice', 'ETHUSDT', {
      side: 'Short',
      entries: [['3', '3050', A + 6 * HOUR]],
      exits: [['2', '3000', A + 7 * HOUR]],
    });
    // The sell of 3 closed the long of 1 and opened a short of 2, as Bybit's closedSize says.
    reversal.executions[0]!.closedSize = '1';
    ctx.bybit.executions.push(
      ...btc.executions,
      ...long.executions,
      ...reversal.executions,
      bybitFunding('alice', 'BTCUSDT', 'Buy', '0.05', A + 3 * HOUR),
    );
    ctx.bybit.closedPnl.push(...btc.closedPnl, ...reversal.closedPnl);
    ctx.bybit.wallets.push({ uid: 'alice', coin: 'USDT', walletBalance: '1500' });

    const connected = await alice.post('/api/connections', { provider: 'bybit', api_key: BYBIT_KEY, api_secret: BYBIT_SECRET });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    expect(connected.body).toMatchObject({
      provider: 'bybit',
      provider_label: 'Bybit',
      user_name: 'API key ending in b1b1',
      credential: 'key-secret',
    });
    const journal = await createAccount(alice, 'Bybit USDT');
    const usdt = connected.body.accounts.find((a: { external_id: string }) => a.external_id === 'USDT');
    expect(usdt).toMatchObject({ name: 'USDT perpetuals', currency: 'USDT', balance: '1500.00' });
    await alice.patch(`/api/connections/${connected.body.id}/broker-accounts/${usdt.id}`, {
      account_id: journal.id,
      sync_from: dayOfMs(utcDaysAgo(4)),
    });
    const done = await syncExchange(ctx, alice, connected.body.id);
    expect(done.last_outcome, JSON.stringify(done.last_outcome)).toMatchObject({ status: 'ok', added: 3, funding: 1 });

    expect((await listAll(alice, `account=${journal.id}`)).map(view).sort()).toEqual(
      [
        // 0.01 x 600 = 6.00; fees 0.33 + 0.3333 = 0.6633; funding: the long paid 0.05.
        ['BYBIT:BTCUSDT.P', 'BTC', 'Long', '0.01000000', '60000.00000000', '60600.00000000', '6.00', '0.66', '-0.05', '5.29', 'bybit-api'],
        // The long: 1.65 + a third of 5.0325. The short: two thirds of it + 3.30 = 6.655, half up.
        ['BYBIT:ETHUSDT.P', 'ETH', 'Long', '1.00000000', '3000.00000000', '3050.00000000', '50.00', '3.33', null, '46.67', 'bybit-api'],
        ['BYBIT:ETHUSDT.P', 'ETH', 'Short', '2.00000000', '3050.00000000', '3000.00000000', '100.00', '6.66', null, '93.34', 'bybit-api'],
      ].sort(),
    );
    expect((await syncExchange(ctx, alice, connected.body.id)).last_outcome).toMatchObject({ status: 'ok', added: 0 });
  });

  it('Hyperliquid: a wallet, no key; its USDC trades and funding; nothing to replace; another trader sees none of it', async () => {
    const B = utcDaysAgo(2, 14);
    ctx.hyperliquid.accounts.set(ALICE_WALLET, '2500.5');
    ctx.hyperliquid.fills.push(
      ...hyperliquidFills(ALICE_WALLET, 'BTC', [
        ['0.1', '60000', B],
        ['-0.1', '61000', B + 3 * HOUR],
      ]),
    );
    ctx.hyperliquid.funding.push({ user: ALICE_WALLET, time: B + 2 * HOUR, coin: 'BTC', usdc: '-0.5', szi: '0.1', fundingRate: '0.0000833' });

    expect((await alice.post('/api/connections/test', { provider: 'hyperliquid', wallet_address: '0x1234' })).body.error).toBe(
      'wallet_address: must be a wallet address: 0x and 40 hexadecimal digits',
    );
    const connected = await alice.post('/api/connections', {
      provider: 'hyperliquid',
      wallet_address: ALICE_WALLET.toUpperCase().replace('0X', '0x'),
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    expect(connected.body).toMatchObject({ provider: 'hyperliquid', credential: 'wallet', user_name: ALICE_WALLET, key_warning: null });
    expect((await alice.patch(`/api/connections/${connected.body.id}`, { api_key: 'x' })).status).toBe(400);
    const journal = await createAccount(alice, 'Hyperliquid');
    const [account] = connected.body.accounts;
    expect(account).toMatchObject({ name: 'Perpetuals · USDC', currency: 'USDC', balance: '2500.50' });
    await alice.patch(`/api/connections/${connected.body.id}/broker-accounts/${account.id}`, {
      account_id: journal.id,
      sync_from: dayOfMs(utcDaysAgo(3)),
    });
    const done = await syncExchange(ctx, alice, connected.body.id);
    expect(done.last_outcome, JSON.stringify(done.last_outcome)).toMatchObject({ status: 'ok', added: 1, funding: 1 });
    // 0.1 x 1000 = 100; fees 0.035%: 2.10 + 2.135 = 4.235, half up; funding -0.50.
    expect((await listAll(alice, `account=${journal.id}`)).map(view)).toEqual([
      [
        'HYPERLIQUID:BTCUSDC.P',
        'BTC',
        'Long',
        '0.10000000',
        '60000.00000000',
        '61000.00000000',
        '100.00',
        '4.24',
        '-0.50',
        '95.26',
        'hyperliquid-api',
      ],
    ]);
    const overview = await alice.get(`/api/reports/overview?account=${journal.id}`);
    expect([overview.body.basis.currency, overview.body.overview.netCents]).toEqual(['USDC', 9526]);

    expect((await bob.get(`/api/connections/${connected.body.id}`)).status).toBe(404);
    expect((await bob.get('/api/connections')).body.connections).toEqual([]);
    expect(await listAll(bob)).toEqual([]);
    // The same wallet connected twice by alice is one connection.
    const again = await alice.post('/api/connections', { provider: 'hyperliquid', wallet_address: ALICE_WALLET });
    expect([again.status, again.body.error]).toEqual([409, `Hyperliquid wallet ${ALICE_WALLET} is connected already.`]);
  });
  it('R on a USDC account: a planned risk from a stop price or typed in USDC gives the same R, in the trade and the reports', async () => {
    const wallet = '0x5e1f6c0de00000000000000000000000000000c4';
    const carol = await ctx.trader('carol');
    const C = utcDaysAgo(1, 15);
    ctx.hyperliquid.accounts.set(wallet, '1000');
    // Long 0.2 ETH 3000 -> 3100: 20.00 gross; fees 0.035% of 600 and 620 = 0.21 + 0.217 = 0.427 -> 0.43; 19.57 net.
    ctx.hyperliquid.fills.push(
      ...hyperliquidFills(wallet, 'ETH', [
        ['0.2', '3000', C],
        ['-0.2', '3100', C + HOUR],
      ]),
    );
    const connected = await carol.post('/api/connections', { provider: 'hyperliquid', wallet_address: wallet });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    const journal = await createAccount(carol, 'Hyperliquid ETH');
    await carol.patch(`/api/connections/${connected.body.id}/broker-accounts/${connected.body.accounts[0].id}`, {
      account_id: journal.id,
      sync_from: dayOfMs(utcDaysAgo(2)),
    });
    expect((await syncExchange(ctx, carol, connected.body.id)).last_outcome).toMatchObject({ status: 'ok', added: 1 });
    const [synced] = await listAll(carol, `account=${journal.id}`);
    expect([synced!.pnl, synced!.r_multiple]).toEqual(['19.57', null]);

    // A stop at 2950 risks 0.2 x 50 = 10.00 USDC (a perpetual's point is worth one unit of its settlement currency).
    const stopped = await carol.patch(`/api/trades/${synced!.id}`, { stop_price: '2950' });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.planned_risk).toMatchObject({ amount: '10.00' });
    expect(stopped.body.r_multiple).toBeCloseTo(1.957, 3);
    // The same risk typed as an amount in USDC: the same R.
    const typed = await carol.patch(`/api/trades/${synced!.id}`, { stop_price: null, risk_amount: '10' });
    expect([typed.body.planned_risk?.amount, typed.body.r_multiple]).toEqual(['10.00', stopped.body.r_multiple]);
    const r = (await carol.get(`/api/reports/overview?account=${journal.id}`)).body;
    expect(r.basis.currency).toBe('USDC');
    expect(r.r).toMatchObject({ tradesWithRisk: 1, tradesWithoutRisk: 0, netCentsWithRisk: 1957 });
  });
});
