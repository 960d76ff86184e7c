import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBinanceConnector, forgetBinanceBudgets } from '../../src/server/connectors/binance';
import { binanceFunding, binanceKlines, binanceRoundTrip, startBinanceServer, type BinanceStandIn } from '../support/binance-server';

/**
 * The Binance USD-M connector against the stand-in written from Binance's documentation: signatures and the clock
 * (a request 2 s ahead of Binance's clock, or signed with another secret, is refused as Binance refuses it, and the
 * connector measures the clock so its own requests pass), the 7-day windows and 1,000-row pages of userTrades, symbols
 * found in the income history, funding, the key's permissions, the weight budget, 429 and 418, errors in words.
 */
const KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const DAY = 86_400_000;

describe('the Binance USD-M connector', () => {
  let bn: BinanceStandIn;
  const connector = (extra: Partial<Parameters<typeof createBinanceConnector>[0]> = {}) =>
    createBinanceConnector({ futuresUrl: bn.url, spotUrl: bn.url, timeoutMs: 2000, retryBaseMs: 20, ...extra });
  const creds = { kind: 'key-secret' as const, apiKey: KEY, apiSecret: SECRET };

  beforeAll(async () => {
    bn = await startBinanceServer({
      keys: [
        { apiKey: KEY, apiSecret: SECRET, account: 'alice' },
        { apiKey: 'withdraw-key', apiSecret: 'withdraw-secret', account: 'alice', restrictions: { enableWithdrawals: true } },
        { apiKey: 'trading-key', apiSecret: 'trading-secret', account: 'alice', restrictions: { enableFutures: true } },
        { apiKey: 'office-key', apiSecret: 'office-secret', account: 'alice', trustedIps: ['203.0.113.7'] },
      ],
    });
    bn.balances.push({ account: 'alice', asset: 'USDT', balance: '10250.12345678' }, { account: 'alice', asset: 'BNB', balance: '0.5' });
  });
  afterEach(() => {
    forgetBinanceBudgets();
    bn.clockOffsetMs = 0;
  });
  afterAll(async () => bn?.close());

  /** A signed GET as any client would send it, to see what the stand-in refuses. */
  async function raw(path: string, params: Record<string, string>, secret = SECRET, timestamp = Date.now()) {
    const query = new URLSearchParams({ ...params, timestamp: String(timestamp), recvWindow: '5000' });
    query.set('signature', crypto.createHmac('sha256', secret).update(query.toString()).digest('hex'));
    const res = await fetch(`${bn.url}${path}?${query}`, { headers: { 'X-MBX-APIKEY': KEY } });
    return { status: res.status, body: (await res.json()) as { code?: number; msg?: string } };
  }

  it('refuses as Binance does a wrong signature and a clock 2 s ahead, and accepts a well-signed request on time', async () => {
    expect(await raw('/fapi/v2/balance', {}, 'not-the-secret')).toEqual({
      status: 400,
      body: { code: -1022, msg: 'Signature for this request is not valid.' },
    });
    expect((await raw('/fapi/v2/balance', {}, SECRET, Date.now() + 2000)).body.code).toBe(-1021);
    expect((await raw('/fapi/v2/balance', {}, SECRET, Date.now() - 6000)).body).toEqual({
      code: -1021,
      msg: 'Timestamp for this request is outside of the recvWindow.',
    });
    expect((await raw('/fapi/v2/balance', {})).status).toBe(200);
  });

  it("measures Binance's clock: with this server's clock 2 s behind or 7 s ahead of Binance's, its requests still pass", async () => {
    const first = bn.calls.length;
    for (const offset of [2000, -7000]) {
      bn.clockOffsetMs = offset;
      const session = await connector().connect(creds);
      expect((await session.listAccounts()).map((a) => [a.externalId, a.balance, a.currency])).toEqual([
        ['USDT', '10250.12', 'USDT'],
        ['USDC', null, 'USDC'],
      ]);
    }
    expect(bn.calls.slice(first).filter((c) => c.code === -1021)).toEqual([]);
  });

  it('refuses a key that may withdraw, warns of one that may trade, and says in words why a key is refused', async () => {
    await expect(connector().connect({ ...creds, apiKey: 'withdraw-key', apiSecret: 'withdraw-secret' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining('may withdraw or transfer funds, so Edgebook refuses it'),
    });
    const trading = await connector().connect({ ...creds, apiKey: 'trading-key', apiSecret: 'trading-secret' });
    expect(trading.keyWarning).toContain('This key may also trade');
    expect((await connector().connect(creds)).keyWarning).toBeNull();

    await expect(connector().connect({ ...creds, apiSecret: 'another-secret' })).rejects.toMatchObject({
      kind: 'credentials',
      message:
        'Binance did not accept the signature: the secret key does not belong to this API key. Copy both again from Binance (API Management), then connect again.',
    });
    await expect(connector().connect({ ...creds, apiKey: 'unknown-key' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining('Binance refused this API key'),
    });
    // A key that trusts another address: Binance names the address it saw.
    await expect(connector().connect({ ...creds, apiKey: 'office-key', apiSecret: 'office-secret' })).rejects.toMatchObject({
      kind: 'credentials',
      message: expect.stringContaining("this server's address (127.0.0.1) is not among the key's trusted IPs"),
    });
  });

  it('finds symbols in the income history, reads each in 7-day windows and past a full page of 1,000, and the funding', async () => {
    const now = bn.now();
    const start = now - 20 * DAY;
    // 1,203 fills of SOLUSDT within one window (a grid bot), a BTCUSDT trip two weeks later, an ETHUSDC trip (USDC).
    const grid = Array.from({ length: 1203 }, (_, i) =>
      binanceRoundTrip('alice', 'SOLUSDT', { side: 'Long', entries: [['1', '150', start + i * 60_000]], exits: [] }),
    );
    for (const part of grid) {
      bn.trades.push(...part.trades);
      bn.income.push(...part.income);
    }
    const btc = binanceRoundTrip('alice', 'BTCUSDT', {
      side: 'Short',
      entries: [['0.010', '60000', start + 14 * DAY]],
      exits: [['0.010', '59000', start + 14 * DAY + 3_600_000]],
    });
    const eth = binanceRoundTrip('alice', 'ETHUSDC', {
      side: 'Long',
      entries: [['1', '3000', start + 15 * DAY]],
      exits: [['1', '3010', start + 15 * DAY + 60_000]],
    });
    bn.trades.push(...btc.trades, ...eth.trades);
    bn.income.push(...btc.income, ...eth.income, binanceFunding('alice', 'BTCUSDT', '-0.01234567', start + 14 * DAY + 1_800_000));
    const session = await connector().connect(creds);
    const usdt = await session.fetchFills('USDT', { from: new Date(start), to: new Date(now) }, []);
    expect(usdt.fills.filter((f) => f.symbol === 'SOLUSDT')).toHaveLength(1203);
    const btcFills = usdt.fills.filter((f) => f.symbol === 'BTCUSDT').sort((a, b) => a.time.localeCompare(b.time));
    expect(btcFills.map((f) => [f.side, f.quantity, f.price, f.fee, f.feeAsset, f.positionSide, f.closing, f.realizedPnl])).toEqual([
      ['Sell', '0.01', '60000', '0.24', 'USDT', 'BOTH', null, '0'],
      ['Buy', '0.01', '59000', '0.236', 'USDT', 'BOTH', true, '10'],
    ]);
    // USDC symbols belong to the USDC account.
    expect(usdt.fills.some((f) => f.symbol === 'ETHUSDC')).toBe(false);
    expect((await session.fetchFills('USDC', { from: new Date(start), to: new Date(now) }, [])).fills.map((f) => f.symbol)).toEqual([
      'ETHUSDC',
      'ETHUSDC',
    ]);

    const trades = bn.calls.filter((c) => c.path === '/fapi/v1/userTrades' && c.status === 200);
    // Never a window over 7 days, never a fromId with times, never a symbol the account did not trade.
    for (const call of trades) {
      if (call.params.fromId) expect(call.params.startTime).toBeUndefined();
      else expect(Number(call.params.endTime) - Number(call.params.startTime)).toBeLessThanOrEqual(7 * DAY);
    }
    expect(new Set(trades.map((c) => c.params.symbol))).toEqual(new Set(['SOLUSDT', 'BTCUSDT', 'ETHUSDC']));
    expect(trades.filter((c) => c.params.symbol === 'SOLUSDT' && c.params.fromId)).toHaveLength(1);

    expect(await session.fetchFunding('USDT', { from: new Date(start), to: new Date(now) })).toEqual([
      {
        id: expect.stringMatching(/^BTCUSDT:/),
        symbol: 'BTCUSDT',
        time: new Date(start + 14 * DAY + 1_800_000).toISOString(),
        amount: '-0.01234567',
        asset: 'USDT',
        positionSide: null,
      },
    ]);
  });

  it('keeps under its weight budget by waiting for the next minute, waits out a short 429, and stops at a 418 ban with its length', async () => {
    // Its own stand-in, so no other test's weight counts; and a minute with room to look.
    const fresh = await startBinanceServer({ keys: [{ apiKey: KEY, apiSecret: SECRET, account: 'alice' }] });
    try {
      if (60_000 - (Date.now() % 60_000) < 5_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 100));
      const stop = new AbortController();
      // A budget of 12 a minute: sign-in spends 2 (the clock, the key), two balance reads 5 each; a third would go
      // over, so it waits for the next minute rather than be sent.
      const session = await createBinanceConnector({
        futuresUrl: fresh.url,
        spotUrl: fresh.url,
        timeoutMs: 2000,
        retryBaseMs: 20,
        weightPerMinute: 12,
      }).connect(creds, { signal: stop.signal });
      await session.listAccounts();
      await session.listAccounts();
      const read = session.listAccounts();
      await new Promise((r) => setTimeout(r, 400));
      expect(fresh.calls.filter((c) => c.path === '/fapi/v2/balance')).toHaveLength(2);
      stop.abort();
      await expect(read).rejects.toMatchObject({ kind: 'aborted' });

      const other = await createBinanceConnector({ futuresUrl: fresh.url, spotUrl: fresh.url, timeoutMs: 2000, retryBaseMs: 20 }).connect(creds);
      forgetBinanceBudgets();
      fresh.fail('/fapi/v2/balance', 429, 1, 1);
      expect(await other.listAccounts()).toHaveLength(2);
      expect(fresh.count('/fapi/v2/balance', 429)).toBe(1);
      fresh.fail('/fapi/v2/balance', 418, 1, 7200, { code: -1003, msg: 'Way too much request weight used; IP banned until 1.' });
      await expect(other.listAccounts()).rejects.toMatchObject({
        kind: 'rate-limited',
        message:
          "Binance has blocked this server's IP address for a while, for asking too often after being told to slow down: for 2 hours. Syncs resume once the block is lifted.",
      });
    } finally {
      await fresh.close();
    }
  }, 30_000);

  it('reads one-minute klines oldest first, past the 1,500-bar limit', async () => {
    const from = Math.floor((bn.now() - 3 * DAY) / 60_000) * 60_000;
    bn.klines.set('BTCUSDT', binanceKlines(from, 2000, 60_000));
    const session = await connector().connect(creds);
    const bars = await session.fetchBars('BTCUSDT', { from: new Date(from), to: new Date(from + 1999 * 60_000) });
    expect(bars).toHaveLength(2000);
    expect(bars[0]).toEqual({ start: new Date(from).toISOString(), open: '60000', high: '60020', low: '59980', close: '60005', volume: '12.5' });
    expect(bn.calls.filter((c) => c.path === '/fapi/v1/klines').map((c) => Number(c.params.limit))).toEqual([1500, 1500]);
  });
});
