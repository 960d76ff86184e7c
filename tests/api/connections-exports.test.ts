import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type ApiClient } from '../support/app';
import { binanceRoundTrip, type BinanceTrade } from '../support/binance-server';
import { bybitRoundTrip, type BybitExecution } from '../support/bybit-server';
import { hyperliquidFills, type HyperliquidFill } from '../support/hyperliquid-server';
import { importFile } from './imports-support';
import { createAccount, listAll } from './trades-support';
import {
  BINANCE_KEY,
  BINANCE_SECRET,
  BOB_BINANCE_KEY,
  BOB_BINANCE_SECRET,
  BYBIT_KEY,
  BYBIT_SECRET,
  dayOfMs,
  startExchangeApp,
  syncExchange,
  utcDaysAgo,
  type ExchangeApp,
} from './exchanges-support';

/**
 * A trade synced from an exchange and the same trade imported from that exchange's own trade-history export are one
 * trade, whichever comes first: Binance, Bybit and Hyperliquid, against their stand-ins.
 */
const HOUR = 3_600_000;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

function binanceExport(trades: BinanceTrade[]): string {
  const rows = [...trades]
    .sort((a, b) => b.time - a.time)
    .map((t) => [utc(t.time), t.symbol, t.side, t.price, t.qty, t.quoteQty, t.commission, t.commissionAsset, t.realizedPnl, 'USDT'].join(','));
  return ['Date(UTC),Symbol,Side,Price,Quantity,Amount,Fee,Fee Coin,Realized Profit,Quote Asset', ...rows].join('\n');
}
function bybitExport(executions: BybitExecution[]): string {
  const rows = executions.map((e) =>
    [e.symbol, e.side, e.execQty, e.execPrice, e.execFee, e.feeCurrency, e.execType, e.closedSize, e.execTime, e.execId].join(','),
  );
  return ['Symbol,Side,Exec Qty,Exec Price,Exec Fee,Fee Currency,Exec Type,Closed Size,Exec Time,Exec ID', ...rows].join('\n');
}
function hyperliquidExport(fills: HyperliquidFill[]): string {
  const stamp = (ms: number) => {
    const d = new Date(ms);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} - ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  };
  const rows = fills.map((f) => [stamp(f.time), f.coin, f.dir, f.px, f.sz, (Number(f.px) * Number(f.sz)).toFixed(2), f.fee, f.closedPnl].join(','));
  return ['time,coin,dir,px,sz,ntl,fee,closedPnl', ...rows].join('\n');
}

describe.each(backends())("exchanges' exports and their connections on %s", (backend) => {
  let ctx: ExchangeApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    ctx = await startExchangeApp(backend);
    [alice, bob] = await Promise.all([ctx.trader('alice'), ctx.trader('bob')]);
  });
  afterAll(async () => ctx?.close());

  const connectAndMap = async (client: ApiClient, body: Record<string, string>, external: string, accountId: string, from: number) => {
    const connected = await client.post('/api/connections', body);
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    const account = connected.body.accounts.find((a: { external_id: string }) => a.external_id === external);
    const mapped = await client.patch(`/api/connections/${connected.body.id}/broker-accounts/${account.id}`, {
      account_id: accountId,
      sync_from: dayOfMs(from),
    });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    return connected.body.id as string;
  };

  it('Binance: the export first, then the sync finds its trades and adds none; the sync first, then the export imports none', async () => {
    const A = utcDaysAgo(3, 13);
    const aliceTrips = [
      binanceRoundTrip('alice', 'BTCUSDT', { side: 'Long', entries: [['0.010', '60000', A]], exits: [['0.010', '60500', A + HOUR]] }),
      binanceRoundTrip('alice', 'ETHUSDT', {
        side: 'Short',
        entries: [['1', '3010', A + 2 * HOUR]],
        exits: [
          ['0.5', '3000', A + 3 * HOUR],
          ['0.5', '2990', A + 4 * HOUR],
        ],
      }),
    ];
    for (const trip of aliceTrips) {
      ctx.binance.trades.push(...trip.trades);
      ctx.binance.income.push(...trip.income);
    }
    const journal = await createAccount(alice, 'Binance', { currency: 'USDT' });
    const imported = await importFile(alice, { account_id: journal.id }, binanceExport(aliceTrips.flatMap((t) => t.trades)));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 2, format: { id: 'binance-futures' } });
    const connection = await connectAndMap(
      alice,
      { provider: 'binance', api_key: BINANCE_KEY, api_secret: BINANCE_SECRET },
      'USDT',
      journal.id,
      utcDaysAgo(4),
    );
    const synced = await syncExchange(ctx, alice, connection);
    expect(synced.last_outcome).toMatchObject({ status: 'ok', added: 0, duplicates: 2 });
    const trades = await listAll(alice, `account=${journal.id}`);
    expect(trades.map((t) => [t.contract, t.side, t.pnl, t.import_source]).sort()).toEqual([
      // 0.01 x 500 = 5.00 less 0.24 + 0.242 in fees; 0.5 x 10 + 0.5 x 20 = 15.00 less 1.204 + 0.6 + 0.598.
      ['BINANCE:BTCUSDT.P', 'Long', '4.52', 'binance-futures'],
      ['BINANCE:ETHUSDT.P', 'Short', '12.60', 'binance-futures'],
    ]);

    const bobTrips = [
      binanceRoundTrip('bob', 'BTCUSDT', { side: 'Short', entries: [['0.002', '61000', A + HOUR]], exits: [['0.002', '60000', A + 5 * HOUR]] }),
    ];
    for (const trip of bobTrips) {
      ctx.binance.trades.push(...trip.trades);
      ctx.binance.income.push(...trip.income);
    }
    const bobJournal = await createAccount(bob, 'Binance');
    const bobConnection = await connectAndMap(
      bob,
      { provider: 'binance', api_key: BOB_BINANCE_KEY, api_secret: BOB_BINANCE_SECRET },
      'USDT',
      bobJournal.id,
      utcDaysAgo(4),
    );
    expect((await syncExchange(ctx, bob, bobConnection)).last_outcome).toMatchObject({ status: 'ok', added: 1 });
    const after = await importFile(bob, { account_id: bobJournal.id }, binanceExport(bobTrips.flatMap((t) => t.trades)));
    expect(after.body).toMatchObject({ imported: 0, duplicates: 1 });
    expect(await listAll(bob, `account=${bobJournal.id}`)).toHaveLength(1);
  });

  it("Bybit: the export first, then the sync adds none and gives the imported trade the API's fills", async () => {
    const A = utcDaysAgo(2, 13);
    const trip = bybitRoundTrip('alice', 'SOLUSDT', {
      side: 'Long',
      entries: [['10', '150', A]],
      exits: [
        ['4', '152', A + HOUR],
        ['6', '153', A + 2 * HOUR],
      ],
    });
    ctx.bybit.executions.push(...trip.executions);
    ctx.bybit.closedPnl.push(...trip.closedPnl);
    const journal = await createAccount(alice, 'Bybit', { currency: 'USDT' });
    const imported = await importFile(alice, { account_id: journal.id }, bybitExport(trip.executions));
    expect(imported.body).toMatchObject({ imported: 1, format: { id: 'bybit-trades' } });
    const connection = await connectAndMap(
      alice,
      { provider: 'bybit', api_key: BYBIT_KEY, api_secret: BYBIT_SECRET },
      'USDT',
      journal.id,
      utcDaysAgo(3),
    );
    expect((await syncExchange(ctx, alice, connection)).last_outcome).toMatchObject({ status: 'ok', added: 0, duplicates: 1 });
    const [trade] = await listAll(alice, `account=${journal.id}`);
    expect([trade!.contract, trade!.gross_pnl, trade!.import_source]).toEqual(['BYBIT:SOLUSDT.P', '26.00', 'bybit-trades']);
    const fills = await alice.get(`/api/trades/${trade!.id}/fills`);
    expect(fills.body.fills.map((f: { quantity: string }) => f.quantity)).toEqual(['10', '4', '6']);
  });

  it('Hyperliquid: the sync first, then the export imports none', async () => {
    const wallet = '0x9c0a4b5e6f7d8c9b0a1f2e3d4c5b6a7980e1f2a3';
    const B = utcDaysAgo(2, 15);
    const fills = hyperliquidFills(wallet, 'ETH', [
      ['0.5', '3000', B],
      ['-0.5', '3100', B + HOUR],
    ]);
    ctx.hyperliquid.fills.push(...fills);
    const journal = await createAccount(alice, 'Hyperliquid wallet');
    const connection = await connectAndMap(alice, { provider: 'hyperliquid', wallet_address: wallet }, 'USDC', journal.id, utcDaysAgo(3));
    expect((await syncExchange(ctx, alice, connection)).last_outcome).toMatchObject({ status: 'ok', added: 1 });
    const after = await importFile(alice, { account_id: journal.id, time_zone: 'UTC' }, hyperliquidExport(fills));
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body).toMatchObject({ imported: 0, duplicates: 1, format: { id: 'hyperliquid-trades' } });
  });
});
